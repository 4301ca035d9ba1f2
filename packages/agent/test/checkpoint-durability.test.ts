import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalFileStore, type FileStore, type StoreWrite } from '@x/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CorruptConversationError } from '../src/conversation/index.js';
import { CHECKPOINT_EVERY_STEPS } from '../src/conversation/run-loop.js';
import { VIEW_CHECKPOINT_FILE } from '../src/conversation/view-checkpoint/index.js';
import { Agent, Conversation, createOfflineLLM, defineTool } from '../src/index.js';
import { workspaceIn } from './support/workspace-beside-store.js';

type Write = { how: 'write' | 'writeRebuildable'; file: string; steps: number };

/** The real local store (fsync on), recording each write of a file beside base_state.json and how it went. */
function recordingStore(inner: FileStore, steps: () => number): { store: FileStore; writes: Write[] } {
  const writes: Write[] = [];
  const name = (path: string) => path.slice(path.lastIndexOf('/') + 1);
  const store = Object.create(inner) as FileStore;
  store.write = (path: string, data: string | Uint8Array) => {
    writes.push({ how: 'write', file: name(path), steps: steps() });
    return inner.write(path, data);
  };
  store.writeRebuildable = (files: readonly StoreWrite[]) => {
    for (const file of files) writes.push({ how: 'writeRebuildable', file: name(file.path), steps: steps() });
    return inner.writeRebuildable!(files);
  };
  return { store, writes };
}

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-checkpoint-durability-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

describe('base_state.json during a run', () => {
  it('is written durably at every periodic checkpoint and at once when a setting no event records changes', async () => {
    let steps = 0;
    let conversation: Conversation | undefined;
    const { store, writes } = recordingStore(createLocalFileStore({ root, durability: 'fsync' }), () => steps);
    let writesBeforeSecrets = -1;
    let writesAfterSecrets: Write[] = [];
    const tool = defineTool({
      name: 'work',
      description: 'Counts the step; at step 30 adds a secret, as a caller may while a run goes on.',
      parameters: z.object({ n: z.number() }),
      execute: async () => {
        steps += 1;
        if (steps === 30) {
          writesBeforeSecrets = writes.length;
          await conversation!.updateSecrets({ TOKEN: 'value-set-mid-run' });
          writesAfterSecrets = writes.slice(writesBeforeSecrets);
        }
        return { content: `step ${steps} done` };
      },
    });
    const total = 2 * CHECKPOINT_EVERY_STEPS + 5;
    const llm = createOfflineLLM({
      script: (_request, turn) =>
        turn >= total
          ? { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }
          : { toolCalls: [{ name: 'work', arguments: { n: turn } }] },
    });
    conversation = await Conversation.create({
      agent: new Agent({ llm, tools: [tool] }),
      workspace: await workspaceIn(root),
      persistenceDir: root,
      store,
      stuckDetection: false,
    });
    await conversation.sendMessage('go');
    writes.length = 0;
    await conversation.run();
    await conversation.close();

    const baseState = writes.filter((write) => write.file === 'base_state.json');
    // Never unsynced: a power loss could leave it empty, and the conversation could not be opened.
    expect(baseState.filter((write) => write.how !== 'write')).toEqual([]);
    // The periodic checkpoints (after steps 25 and 50) are durable writes, made within their step.
    const periodic = baseState.filter((write) => write.steps === 25 || write.steps === 50);
    expect(periodic.map((write) => write.steps)).toEqual([25, 50]);
    // The view checkpoint beside it is derived: written without fsync.
    const view = writes.filter((write) => write.file === VIEW_CHECKPOINT_FILE);
    expect(view.length).toBeGreaterThan(0);
    expect(view.every((write) => write.how === 'writeRebuildable')).toBe(true);
    // A secret (in no event) reaches base_state.json durably before updateSecrets resolves, mid-run.
    expect(writesAfterSecrets.filter((write) => write.file === 'base_state.json')).toEqual([
      { how: 'write', file: 'base_state.json', steps: 30 },
    ]);
  });

  it('left empty (what an unsynced rename can leave after a power loss) stops the conversation from opening', async () => {
    // Why it is never written without fsync: unlike the view checkpoint, it cannot be rebuilt from the events.
    const llm = createOfflineLLM({ script: () => ({ content: 'done' }) });
    const options = { agent: new Agent({ llm, tools: [] }), workspace: await workspaceIn(root), persistenceDir: root };
    const conversation = await Conversation.create({ ...options, confirmationPolicy: { kind: 'AlwaysConfirm' } });
    await conversation.close();
    await writeFile(join(root, conversation.directory, 'base_state.json'), '');
    await expect(Conversation.resume(conversation.id, options)).rejects.toSatisfy((error) =>
      CorruptConversationError.isInstance(error),
    );
  });
});

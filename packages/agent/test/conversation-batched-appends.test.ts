import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileStoreLeases, createLocalFileStore, EventLog, type FileStore } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Conversation, createOfflineLLM, defineTool } from '../src/index.js';
import { workspaceIn } from './support/workspace-beside-store.js';

// A step's stats update (from the model's response) is written with the step's next event in one round of
// the store (EventLog.appendMany → writeIfAbsentThenLinkMany on the local store, with the batch's events).

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const tool = defineTool({
  name: 'run_command',
  description: 'Returns a fixed output.',
  parameters: z.object({ command: z.string() }),
  execute: () => ({ content: 'output' }),
});

function agentFor(steps: number): Agent {
  return new Agent({
    llm: createOfflineLLM({
      script: (_request, turn) =>
        turn >= steps
          ? { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }
          : { toolCalls: [{ name: 'run_command', arguments: { command: `step ${turn}` } }] },
    }),
    tools: [tool],
  });
}

/** The store, recording the name of every write call (and, for a batch call, how many items it had). */
function recordingStore(inner: FileStore): { store: FileStore; writes: string[] } {
  const writes: string[] = [];
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const name = String(property);
        const batch = name.endsWith('Many') && Array.isArray(args[0]) ? ` ×${args[0].length}` : '';
        if (name.startsWith('write')) writes.push(`${name}${batch}`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, writes };
}

describe('a conversation on the local store', () => {
  it('writes each step’s stats update with its action in one round, and the log reads as before', async () => {
    const root = await mkdtemp(join(tmpdir(), 'x-batched-'));
    roots.push(root);
    const { store, writes } = recordingStore(createLocalFileStore({ root, durability: 'fsync' }));
    const steps = 4;
    const conversation = await Conversation.create({
      agent: agentFor(steps),
      workspace: await workspaceIn(root),
      persistenceDir: root,
      store,
    });
    await conversation.sendMessage('go');
    writes.length = 0;
    await conversation.run();
    const live = conversation.state;
    await conversation.close();
    // One batch per model response (the tool steps and the finish), never a stats update on its own.
    expect(writes.filter((name) => name === 'writeIfAbsentThenLinkMany ×2')).toHaveLength(steps + 1);

    const resumed = await Conversation.resume(conversation.id, { agent: agentFor(0), persistenceDir: root });
    const kinds: string[] = [];
    for await (const event of resumed.events()) kinds.push(event.kind);
    // The same events in the same order as one append per event: the run's start record and a status update,
    // then per model response its stats update, the action and the observation, then the run's end record.
    const perResponse = ['ConversationStateUpdateEvent', 'ActionEvent', 'ObservationEvent'];
    expect(kinds).toEqual([
      'SystemPromptEvent',
      'MessageEvent',
      'ConversationStateUpdateEvent',
      'ConversationStateUpdateEvent',
      ...Array.from({ length: steps + 1 }, () => perResponse).flat(),
      'ConversationStateUpdateEvent',
    ]);
    // The state folded from the log has every response's stats, as the live conversation had.
    expect(resumed.state.stats).toEqual(live.stats);
    const responses = Object.values(live.stats.usage_to_metrics)[0];
    expect(responses?.accumulated_token_usage).toBeDefined();
    await resumed.close();
  });
});

describe('a conversation whose log cannot take a stats update with the next event', () => {
  /** Runs two tool steps on the local store's log as seen through `overrides` (a log of the caller's). */
  async function runOn(options: {
    root: string;
    store: FileStore;
    shared: boolean;
    overrides: Record<string, unknown>;
  }) {
    const conversation = await Conversation.create({
      agent: agentFor(2),
      workspace: await workspaceIn(options.root),
      persistenceDir: options.root,
      store: options.store,
      ...(options.shared
        ? { leases: createFileStoreLeases(options.store, { owner: 'replica-a', ttlMs: 60_000 }) }
        : {}),
      openEventLog: async ({ store, conversationId }) => {
        const log = await EventLog.open(store, { dir: `${conversationId.replaceAll('-', '')}/events` });
        return new Proxy(log, {
          get(target, key) {
            if (typeof key === 'string' && Object.hasOwn(options.overrides, key)) return options.overrides[key];
            const value = Reflect.get(target, key, target) as unknown;
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
      },
    });
    await conversation.sendMessage('go');
    const result = await conversation.run();
    const stats = conversation.state.stats;
    await conversation.close();
    return { result, stats };
  }

  for (const [name, shared, overrides] of [
    // `appendMany` is optional in EventLogLike.
    ['a log without appendMany', false, { appendMany: undefined }],
    ['a log shared with other replicas that does not fence a batch', true, { fencesAppends: false }],
  ] as const) {
    it(`writes each stats update on its own, on ${name}`, async () => {
      const root = await mkdtemp(join(tmpdir(), 'x-unbatched-'));
      roots.push(root);
      const { store, writes } = recordingStore(createLocalFileStore({ root, durability: 'fsync' }));
      const { result, stats } = await runOn({ root, store, shared, overrides });
      expect(result.status).toBe('finished');
      expect(writes.filter((write) => write.endsWith('×2'))).toEqual([]);
      expect(Object.values(stats.usage_to_metrics)[0]?.accumulated_token_usage).toBeDefined();
    });
  }
});

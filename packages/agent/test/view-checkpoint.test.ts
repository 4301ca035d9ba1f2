import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnyEvent, View } from '@x/events';
import { createLocalFileStore, type FileStore } from '@x/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildViewCheckpoint, VIEW_CHECKPOINT_FILE } from '../src/conversation/view-checkpoint/index.js';
import {
  Agent,
  Conversation,
  createOfflineLLM,
  defineTool,
  type LLMRequest,
  LLMSummarizingCondenser,
} from '../src/index.js';
import { workspaceIn } from './support/workspace-beside-store.js';

const tool = defineTool({
  name: 'run_command',
  description: 'Returns a fixed output.',
  parameters: z.object({ command: z.string() }),
  execute: () => ({ content: 'output' }),
});

let agents = 0;
/** An agent that calls the tool `steps` times, then finishes, and condenses when the view passes 10 events. */
function agentFor(steps: number, requests: LLMRequest[] = []): Agent {
  const llm = createOfflineLLM({
    script: (request, turn) => {
      requests.push(request);
      return turn >= steps
        ? { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }
        : { toolCalls: [{ name: 'run_command', arguments: { command: `step ${turn}` } }] };
    },
  });
  // Response ids must be unique in a log, as a provider's are (a repeated one joins the earlier batch, which
  // the repair then finds cut); the offline model restarts its count with each instance.
  const run = ++agents;
  const complete = llm.complete.bind(llm);
  llm.complete = async (request) => {
    const response = await complete(request);
    return { ...response, id: `run${run}-${response.id}` };
  };
  return new Agent({
    llm,
    tools: [tool],
    condenser: new LLMSummarizingCondenser({
      llm: createOfflineLLM({ script: () => ({ content: 'summary of the earlier steps' }) }),
      maxSize: 10,
    }),
  });
}

/** The store, counting reads of event files. */
function countingStore(inner: FileStore): { store: FileStore; eventReads: () => number } {
  let reads = 0;
  const store = Object.create(inner) as FileStore;
  store.read = (path: string) => {
    if (path.includes('/events/')) reads += 1;
    return inner.read(path);
  };
  return { store, eventReads: () => reads };
}

let root: string;
/** Conversations resumed by a test: closed before its directory is removed, so no background write races the removal. */
let opened: Conversation[] = [];
async function closeOpened(): Promise<void> {
  await Promise.all(opened.map((conversation) => conversation.close()));
  opened = [];
}
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-view-checkpoint-'));
});
afterEach(async () => {
  await closeOpened();
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

async function resume(...args: Parameters<typeof Conversation.resume>): Promise<Conversation> {
  const conversation = await Conversation.resume(...args);
  opened.push(conversation);
  return conversation;
}

const ids = (events: readonly AnyEvent[]) => events.map((event) => event.id);

async function longConversation(steps = 30): Promise<{ id: string; length: number }> {
  const conversation = await Conversation.create({
    agent: agentFor(steps),
    workspace: await workspaceIn(root),
    store: createLocalFileStore({ root, durability: 'none' }),
    persistenceDir: root,
  });
  await conversation.sendMessage('go');
  await conversation.run();
  await conversation.close();
  return { id: conversation.id, length: conversation.log.length };
}

/** The view a full rebuild gives: View.fromEvents over the active branch. */
async function rebuiltView(id: string): Promise<View> {
  const conversation = await resume(id, { agent: agentFor(0), persistenceDir: root });
  return View.fromEvents(await conversation.activeBranch());
}

describe('view checkpoint', () => {
  it('resumes with the same view as a full rebuild, reading only the view’s events', async () => {
    const { id, length } = await longConversation();
    const counting = countingStore(createLocalFileStore({ root, durability: 'none' }));
    const resumed = await resume(id, { agent: agentFor(0), store: counting.store, persistenceDir: root });
    const view = await resumed.view();
    const expected = await rebuiltView(id);
    expect(ids(view.events)).toEqual(ids(expected.events));
    expect(view.unhandledCondensationRequest).toBe(expected.unhandledCondensationRequest);
    // Condensation keeps the view short: far fewer reads than events in the log.
    expect(view.events.length).toBeLessThan(15);
    expect(counting.eventReads()).toBeLessThan(length / 2);
  });

  it('applies the events appended after it: the model gets the same messages as after a full rebuild', async () => {
    const { id } = await longConversation();
    // A copy of the conversation without its view checkpoint resumes by rebuilding the view.
    const copy = await mkdtemp(join(tmpdir(), 'x-view-checkpoint-copy-'));
    try {
      await cp(root, copy, { recursive: true });
      const resumeAndContinue = async (persistenceDir: string): Promise<string[]> => {
        const requests: LLMRequest[] = [];
        const resumed = await resume(id, { agent: agentFor(1, requests), persistenceDir });
        await resumed.sendMessage('once more');
        await resumed.run();
        await resumed.close();
        return requests.map((request) => JSON.stringify(request.messages));
      };
      const copyDirectory = (await resume(id, { agent: agentFor(0), persistenceDir: copy })).directory;
      await rm(join(copy, copyDirectory, VIEW_CHECKPOINT_FILE));
      const withCheckpoint = await resumeAndContinue(root);
      const rebuilt = await resumeAndContinue(copy);
      expect(withCheckpoint).toEqual(rebuilt);
      expect(withCheckpoint[0]).toContain('once more');
    } finally {
      await closeOpened();
      await rm(copy, { recursive: true, force: true, maxRetries: 5 });
    }
  });

  it('is ignored when corrupt, and the view is rebuilt from the log', async () => {
    const { id } = await longConversation(12);
    const resumedOnce = await resume(id, { agent: agentFor(0), persistenceDir: root });
    const path = join(root, resumedOnce.directory, VIEW_CHECKPOINT_FILE);
    await writeFile(path, '{"version": 1, "entries": [[0, 99999]]');
    const view = await (await resume(id, { agent: agentFor(0), persistenceDir: root })).view();
    expect(ids(view.events)).toEqual(ids((await rebuiltView(id)).events));
  });

  it('is ignored when a power loss left it empty or zero-filled (it is written without fsync)', async () => {
    const { id } = await longConversation(12);
    const resumedOnce = await resume(id, { agent: agentFor(0), persistenceDir: root });
    const path = join(root, resumedOnce.directory, VIEW_CHECKPOINT_FILE);
    const size = (await readFile(path)).length;
    for (const left of [Buffer.alloc(0), Buffer.alloc(size)]) {
      await writeFile(path, left);
      const view = await (await resume(id, { agent: agentFor(0), persistenceDir: root })).view();
      expect(ids(view.events)).toEqual(ids((await rebuiltView(id)).events));
    }
  });

  it('is ignored when it names another log, and the view is rebuilt from the log', async () => {
    const { id } = await longConversation(12);
    const resumedOnce = await resume(id, { agent: agentFor(0), persistenceDir: root });
    const path = join(root, resumedOnce.directory, VIEW_CHECKPOINT_FILE);
    const checkpoint = JSON.parse(await readFile(path, 'utf8'));
    // Same shape, but it claims the view is only the first event: its last_event_id gives it away.
    await writeFile(path, JSON.stringify({ ...checkpoint, entries: [[0, 1]], last_event_id: 'another-log' }));
    const view = await (await resume(id, { agent: agentFor(0), persistenceDir: root })).view();
    expect(ids(view.events)).toEqual(ids((await rebuiltView(id)).events));
    expect(view.events.length).toBeGreaterThan(1);
  });

  it('written after a resumed run, names what a checkpoint built from scratch names', async () => {
    const { id } = await longConversation(12);
    const resumed = await resume(id, { agent: agentFor(3), persistenceDir: root });
    await resumed.sendMessage('three more');
    await resumed.run();
    // The restored view's checkpoint names only the events appended since (the rest is remembered).
    const view = await resumed.view();
    const continued = buildViewCheckpoint(view, resumed.state, resumed.log);
    const fresh = View.restore([...view.foldedEvents], view.unhandledCondensationRequest);
    expect(continued).toBeDefined();
    expect(continued).toEqual(buildViewCheckpoint(fresh, resumed.state, resumed.log));
    await resumed.close();
    const path = join(root, resumed.directory, VIEW_CHECKPOINT_FILE);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(continued);
  });

  it('is rebuilt when deleted, and written again at the next checkpoint', async () => {
    const { id } = await longConversation(12);
    const first = await resume(id, { agent: agentFor(0), persistenceDir: root });
    const path = join(root, first.directory, VIEW_CHECKPOINT_FILE);
    await rm(path);
    await first.view();
    await first.close();
    const checkpoint = JSON.parse(await readFile(path, 'utf8'));
    expect(checkpoint.event_count).toBe(first.log.length);
  });
});

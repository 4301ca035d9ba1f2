// A run whose every await is a microtask (a memory store, the offline model answering without I/O) lets the event
// loop turn between steps: timers, other conversations' runs and a server's requests do not wait for its end.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { createMemoryFileStore, type FileStore } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Conversation, createOfflineLLM, defineTool, type RunResult } from '../src/index.js';

const STEPS = 100;

const dirs: string[] = [];
const open: Conversation[] = [];
afterEach(async () => {
  for (const conversation of open.splice(0)) await conversation.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** Every step the tool runs is recorded in `trace` as `<name> <turn>`. */
async function offlineConversation(name: string, trace: string[], store: FileStore = createMemoryFileStore()) {
  const dir = await mkdtemp(join(tmpdir(), 'x-event-loop-turns-'));
  dirs.push(dir);
  const step = defineTool({
    name: 'step',
    description: 'Records the step.',
    parameters: z.object({ turn: z.number() }),
    execute: ({ turn }) => {
      trace.push(`${name} ${turn}`);
      return { content: `step ${turn}` };
    },
  });
  const llm = createOfflineLLM({
    script: (_request, turn) =>
      turn >= STEPS
        ? { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }
        : { toolCalls: [{ name: 'step', arguments: { turn } }] },
  });
  const events: AnyEvent[] = [];
  const conversation = await Conversation.create({
    agent: new Agent({ llm, tools: [step] }),
    workspace: dir,
    persistenceDir: dir,
    store,
    maxIterationsPerRun: STEPS * 2,
    onEvent: (event) => events.push(event),
  });
  open.push(conversation);
  await conversation.sendMessage('go');
  return { conversation, events };
}

/** What an event says, without its id, timestamp and the ids it refers to (which differ between conversations). */
function shape(event: AnyEvent): string {
  return JSON.stringify(event, (key, value) =>
    key === 'id' || key === 'timestamp' || key.endsWith('_id') || key === 'tool_call' ? undefined : value,
  );
}

describe('a run without I/O and the event loop', () => {
  it('interleaves the steps of a run with those of another started meanwhile, each as it runs alone', async () => {
    const store = createMemoryFileStore();
    const trace: string[] = [];
    const a = await offlineConversation('a', trace, store);
    const b = await offlineConversation('b', trace, store);
    // The second run starts as a server's request would: from a later turn of the event loop.
    const runningB = new Promise<RunResult>((resolve, reject) => {
      setImmediate(() => b.conversation.run().then(resolve, reject));
    });
    const [resultA, resultB] = await Promise.all([a.conversation.run(), runningB]);

    // Neither finished all its steps before the other started.
    expect(trace.indexOf('b 0')).toBeLessThan(trace.indexOf(`a ${STEPS - 1}`));
    expect(trace.indexOf('a 0')).toBeLessThan(trace.indexOf(`b ${STEPS - 1}`));
    // Nothing else changes: the same steps, in order, and the same events as a run alone.
    for (const result of [resultA, resultB]) {
      expect(result).toEqual({ status: 'finished', iterations: STEPS + 1, reachedIterationLimit: false });
    }
    for (const name of ['a', 'b']) {
      const steps = trace.filter((entry) => entry.startsWith(`${name} `));
      expect(steps).toEqual(Array.from({ length: STEPS }, (_, turn) => `${name} ${turn}`));
    }
    const alone = await offlineConversation('alone', []);
    await alone.conversation.run();
    expect(a.events.map(shape)).toEqual(alone.events.map(shape));
    expect(b.events.map(shape)).toEqual(alone.events.map(shape));
  });

  it('fires a setImmediate and a timer scheduled before a long run while it runs', async () => {
    const trace: string[] = [];
    const { conversation } = await offlineConversation('a', trace);
    let atImmediate: number | undefined;
    let atTimer: number | undefined;
    setImmediate(() => {
      atImmediate = trace.length;
    });
    setTimeout(() => {
      atTimer = trace.length;
    }, 0);
    const result = await conversation.run();
    expect(result.status).toBe('finished');
    expect(trace).toHaveLength(STEPS);
    expect(atImmediate).toBeLessThan(STEPS);
    expect(atTimer).toBeLessThan(STEPS);
  });

  it('stops between steps when paused from a setImmediate during the run', async () => {
    const trace: string[] = [];
    const { conversation, events } = await offlineConversation('a', trace);
    const running = conversation.run();
    setImmediate(() => void conversation.pause());
    const result = await running;
    expect(result.status).toBe('paused');
    expect(result.iterations).toBeLessThan(STEPS);
    expect(trace).toHaveLength(result.iterations);
    expect(events.filter((event) => event.kind === 'PauseEvent')).toHaveLength(1);

    // A later run continues where the pause stopped it.
    expect((await conversation.run()).status).toBe('finished');
    expect(trace).toEqual(Array.from({ length: STEPS }, (_, turn) => `a ${turn}`));
  });
});

// What the run loop promises around its edges: a finished conversation takes no further step, stuck detection
// follows the conversation's own setting (kept across a resume), a failure is announced as the reference announces
// it (status first, then the error), and the result carries only what happened.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { createMemoryFileStore, EventLog, type FileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Conversation,
  type ConversationOptions,
  createOfflineLLM,
  defineTool,
  finishTool,
  RUN_STATE_KEY,
  thinkTool,
} from '../src/index.js';
import { workspaceIn } from './support/workspace-beside-store.js';

type Turn = { toolCalls: { name: string; arguments: Record<string, unknown> }[] };
const think: Turn = { toolCalls: [{ name: 'think', arguments: { thought: 'again' } }] };
const finish: Turn = { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] };

/** An offline model that plays `turns` in order and counts the calls made to it. */
function scriptedAgent(turns: Turn[]) {
  const calls = { count: 0 };
  const agent = new Agent({
    llm: createOfflineLLM({
      script: () => {
        const turn = turns[calls.count];
        calls.count += 1;
        if (turn === undefined) throw new Error(`model called ${calls.count} times, scripted for ${turns.length}`);
        return turn;
      },
    }),
    tools: [thinkTool, finishTool],
  });
  return { agent, calls };
}

async function create(store: FileStore, agent: Agent, options: Partial<ConversationOptions> = {}) {
  const events: AnyEvent[] = [];
  const conversation = await Conversation.create({ agent, store, onEvent: (event) => events.push(event), ...options });
  return { conversation, events };
}

describe('the run loop', () => {
  it('takes no step when run again after finishing, and reports only what happened', async () => {
    const { agent, calls } = scriptedAgent([finish]);
    const { conversation } = await create(createMemoryFileStore(), agent);
    await conversation.sendMessage('go');
    expect(await conversation.run()).toStrictEqual({ status: 'finished', iterations: 1, reachedIterationLimit: false });
    expect(await conversation.run()).toStrictEqual({ status: 'finished', iterations: 0, reachedIterationLimit: false });
    expect(calls.count).toBe(1);
    await conversation.close();
  });

  it('goes on from stuck when resumed with stuck detection off', async () => {
    const store = createMemoryFileStore();
    const first = scriptedAgent([think, think, think, think]);
    const { conversation } = await create(store, first.agent);
    await conversation.sendMessage('loop');
    expect((await conversation.run()).status).toBe('stuck');
    await conversation.close();

    const second = scriptedAgent([finish]);
    const resumed = await Conversation.resume(conversation.id, { agent: second.agent, store, stuckDetection: false });
    expect(resumed.state.execution_status).toBe('stuck');
    expect(await resumed.run()).toMatchObject({ status: 'finished', iterations: 1 });
    expect(second.calls.count).toBe(1);
    await resumed.close();
  });

  it('keeps stuck detection off after a resume when the conversation was created without it', async () => {
    const store = createMemoryFileStore();
    const { conversation } = await create(store, scriptedAgent([]).agent, { stuckDetection: false });
    await conversation.sendMessage('loop');
    await conversation.close();

    // Resumed without saying: the conversation's own setting holds, though a detector exists for the options.
    const { agent, calls } = scriptedAgent([think, think, think, think, think, finish]);
    const resumed = await Conversation.resume(conversation.id, { agent, store });
    expect(resumed.state.stuck_detection).toBe(false);
    expect(await resumed.run()).toMatchObject({ status: 'finished', iterations: 6 });
    expect(calls.count).toBe(6);
    await resumed.close();
  });

  it('announces a failure as the reference does: the error status, then the ConversationErrorEvent', async () => {
    const { agent } = scriptedAgent([]);
    const { conversation, events } = await create(createMemoryFileStore(), agent);
    await conversation.sendMessage('go');
    await expect(conversation.run()).rejects.toThrow(/scripted for 0/);
    const changes = events.flatMap((event) => {
      if (event.kind === 'ConversationErrorEvent') return ['ConversationErrorEvent'];
      if (event.kind === 'ConversationStateUpdateEvent' && event.key === 'execution_status') return [event.value];
      return [];
    });
    expect(changes).toEqual(['running', 'error', 'ConversationErrorEvent']);
    expect(conversation.state.execution_status).toBe('error');
    await conversation.close();
  });

  it('records no run end when the run could not record its start', async () => {
    const store = createMemoryFileStore();
    let failNextRunRecord = false;
    // The store refuses one write: the run's start record.
    const openEventLog = async (location: { store: FileStore; dir: string }) => {
      const log = await EventLog.open(location.store, { dir: location.dir });
      const append = log.append.bind(log);
      log.append = async (event, options) => {
        if (failNextRunRecord && event.kind === 'ConversationStateUpdateEvent' && event.key === RUN_STATE_KEY) {
          failNextRunRecord = false;
          throw new Error('disk full');
        }
        return append(event, options);
      };
      return log;
    };
    const { agent, calls } = scriptedAgent([finish]);
    const { conversation, events } = await create(store, agent, { openEventLog, durability: 'none' });
    await conversation.sendMessage('go');
    failNextRunRecord = true;
    await expect(conversation.run()).rejects.toThrow(/disk full/);
    expect(calls.count).toBe(0);
    expect(events.some((event) => event.kind === 'ConversationStateUpdateEvent' && event.key === RUN_STATE_KEY)).toBe(
      false,
    );
    expect(conversation.state.execution_status).toBe('error');
    await conversation.close();
  });

  it('stops before the next step when paused as the last event of a step is announced', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'x-run-loop-pause-'));
    try {
      const trace: number[] = [];
      const step = defineTool({
        name: 'step',
        description: 'Records the step.',
        parameters: z.object({ turn: z.number() }),
        execute: ({ turn }) => {
          trace.push(turn);
          return { content: `step ${turn}` };
        },
      });
      const llm = createOfflineLLM({
        script: (_request, turn) => ({ toolCalls: [{ name: 'step', arguments: { turn } }] }),
      });
      // Files on disk: the pause's events are still being written when the step returns.
      let conversation: Conversation | undefined;
      conversation = await Conversation.create({
        agent: new Agent({ llm, tools: [step] }),
        workspace: await workspaceIn(dir),
        persistenceDir: dir,
        durability: 'none',
        onEvent: (event) => {
          if (event.kind === 'ObservationEvent' && trace.length === 2) void conversation?.pause();
        },
      });
      await conversation.sendMessage('go');
      expect(await conversation.run()).toMatchObject({ status: 'paused', iterations: 2 });
      expect(trace).toEqual([0, 1]);
      await conversation.close();
    } finally {
      await rm(dir, { recursive: true, force: true, maxRetries: 5 });
    }
  });
});

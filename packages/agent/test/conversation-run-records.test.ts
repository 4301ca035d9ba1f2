import { afterEach, describe, expect, it } from 'vitest';
import { Conversation, RUN_STATE_KEY, type RunRecord, responseUsages } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

const usage = (prompt: number, completion: number) => ({ prompt_tokens: prompt, completion_tokens: completion });

describe('run records and per-response usage', () => {
  it("records each run's start and end with the agent's name, and how it ended", async () => {
    harness = await startHarness([{ toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }]);
    const { conversation, events } = await harness.conversation({ agent: harness.agent({ name: 'planner' }) });
    await conversation.sendMessage('go');
    await conversation.run();
    const runs = events
      .filter((event) => event.kind === 'ConversationStateUpdateEvent' && event.key === RUN_STATE_KEY)
      .map((event) => (event as { value: RunRecord }).value);
    expect(runs.map((run) => [run.phase, run.agent])).toEqual([
      ['started', 'planner'],
      ['ended', 'planner'],
    ]);
    expect(runs[0]?.run_id).toBe(runs[1]?.run_id);
    expect(runs[1]).toMatchObject({ status: 'finished', iterations: 1, interrupted: false });
    await conversation.close();
  });

  it("records a failed run's end too, after its ConversationErrorEvent", async () => {
    harness = await startHarness([{ error: { status: 400, message: 'bad request' } }]);
    const { conversation, events } = await harness.conversation();
    await conversation.sendMessage('go');
    await expect(conversation.run()).rejects.toThrow();
    const kinds = events.map((event) => (event.kind === 'ConversationStateUpdateEvent' ? `${event.key}` : event.kind));
    expect(kinds.indexOf('ConversationErrorEvent')).toBeLessThan(kinds.lastIndexOf(RUN_STATE_KEY));
    const ended = events.filter((event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'run').at(-1);
    expect((ended as { value: RunRecord }).value).toMatchObject({ phase: 'ended', status: 'error' });
    await conversation.close();
  });

  it("keeps each response's usage with its events across a resume, read from the log", async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'think', arguments: { thought: 'plan' } }], usage: usage(100, 10) },
      { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }], usage: usage(250, 20) },
    ]);
    const { conversation, events } = await harness.conversation();
    await conversation.sendMessage('go');
    await conversation.run();
    const live = responseUsages(events);
    const figures = [...live.values()].map((usages) => usages.map((u) => [u.prompt_tokens, u.completion_tokens]));
    expect(figures).toEqual([[[100, 10]], [[250, 20]]]);
    await conversation.close();

    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
    });
    const fromLog = [];
    for await (const event of resumed.events()) fromLog.push(event);
    expect(responseUsages(fromLog)).toEqual(live);
    await resumed.close();
  });
});

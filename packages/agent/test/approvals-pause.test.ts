// A pause that lands while a run is between two points (after it approved the waiting actions, after the model's
// answer, between two calls of one response): no further action starts; the actions stay pending, with their
// decisions, and the next run executes each once. And `condense()`, whose step would execute waiting actions.
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { LLMSummarizingCondenser } from '../src/condenser/llm-summarizing-condenser.js';
import { ActionsAwaitDecisionError, type Conversation } from '../src/index.js';
import { allEvents, DONE_REPLY, effectTool, readEffects, recordEffectCall } from './support/approval-tools.js';
import { type Harness, startHarness } from './support/harness.js';
import { stallingTool } from './support/stalling-tool.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

const effects = () => readEffects(harness.workspace);

/** The kinds of the events that answer `actionId`, in log order. */
async function answersOf(conversation: Conversation, actionId: string): Promise<string[]> {
  return (await allEvents(conversation))
    .filter((event) => event.kind !== 'ActionEvent' && 'action_id' in event && event.action_id === actionId)
    .map((event) => event.kind);
}

/** Calls `pause()` when `matches` is first announced (from the listener: nothing runs in between); its promise. */
function pauseAt(conversation: Conversation, matches: (event: AnyEvent) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const unsubscribe = conversation.subscribe((event) => {
      if (!matches(event)) return;
      unsubscribe();
      conversation.pause().then(resolve, reject);
    });
  });
}

const becomesRunning = (event: AnyEvent) =>
  event.kind === 'ConversationStateUpdateEvent' && event.key === 'execution_status' && event.value === 'running';

describe('a pause between a run approving the waiting actions and its step', () => {
  it('leaves the approved action pending and approved; the next run executes it once', async () => {
    harness = await startHarness([recordEffectCall('approved'), DONE_REPLY]);
    const { conversation } = await harness.conversation({
      agent: harness.agent({ tools: [effectTool] }),
      confirmationPolicy: { kind: 'AlwaysConfirm' },
    });
    await conversation.sendMessage('go');
    expect((await conversation.run()).status).toBe('waiting_for_confirmation');
    const [action] = await conversation.pendingActions();
    await conversation.decide([{ action_id: action!.id, decision: { kind: 'approve' } }], { principal: 'alice' });

    // The run applies the approval and goes `running`: the pause comes right then, before its step.
    const paused = pauseAt(conversation, becomesRunning);
    // No step is taken: the loop looks for a pause after approving, not only the step for one before each action.
    expect(await conversation.run()).toMatchObject({ status: 'paused', iterations: 0 });
    await paused;
    expect(await effects()).toEqual([]);
    expect((await conversation.pendingActions()).map((pending) => pending.id)).toEqual([action!.id]);

    // The same decision again (a client retrying) records nothing and does not lift the pause.
    expect(
      await conversation.decide([{ action_id: action!.id, decision: { kind: 'approve' } }], { principal: 'alice' }),
    ).toEqual([]);
    expect(conversation.state.execution_status).toBe('paused');

    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual(['approved']);
    expect(await answersOf(conversation, action!.id)).toEqual(['ObservationEvent']);
    await conversation.close();
  });
});

describe('a pause while a run is starting on a conversation waiting for confirmation', () => {
  it('is recorded once the run approved the action, before its step: it runs only in the next run, once', async () => {
    harness = await startHarness([recordEffectCall('asked-while-starting'), DONE_REPLY]);
    const { conversation } = await harness.conversation({
      agent: harness.agent({ tools: [effectTool] }),
      confirmationPolicy: { kind: 'AlwaysConfirm' },
    });
    await conversation.sendMessage('go');
    expect((await conversation.run()).status).toBe('waiting_for_confirmation');
    const [action] = await conversation.pendingActions();
    // The run has begun (registered) and still waits: `pause()` alone would record nothing now.
    const running = conversation.run();
    await conversation.pause();
    expect(await running).toMatchObject({ status: 'paused', iterations: 0 });
    expect(await effects()).toEqual([]);
    expect((await allEvents(conversation)).filter((event) => event.kind === 'PauseEvent')).toHaveLength(1);
    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual(['asked-while-starting']);
    expect(await answersOf(conversation, action!.id)).toEqual(['ObservationEvent']);
    await conversation.close();
  });
});

describe('a pause after the model answered with tool calls', () => {
  it('starts none of them; the next run executes each once', async () => {
    harness = await startHarness([{ toolCalls: [recordCall('first'), recordCall('second')] }, DONE_REPLY]);
    const { conversation } = await harness.conversation({ agent: harness.agent({ tools: [effectTool] }) });
    await conversation.sendMessage('go');
    const paused = pauseAt(conversation, (event) => event.kind === 'ActionEvent');
    expect((await conversation.run()).status).toBe('paused');
    await paused;
    expect(await effects()).toEqual([]);
    const pending = await conversation.pendingActions();
    expect(pending).toHaveLength(2);
    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual(['first', 'second']);
    for (const action of pending) expect(await answersOf(conversation, action.id)).toEqual(['ObservationEvent']);
    expect(harness.server.requests.length).toBe(2);
    await conversation.close();
  });
});

describe('a pause between two calls of one response', () => {
  it('lets the call in progress finish and starts no later one; the next run executes the rest once', async () => {
    const stall = stallingTool();
    harness = await startHarness([
      { toolCalls: [{ name: 'stall', arguments: {} }, recordCall('after-stall')] },
      DONE_REPLY,
    ]);
    const { conversation } = await harness.conversation({ agent: harness.agent({ tools: [stall.tool, effectTool] }) });
    await conversation.sendMessage('go');
    const running = conversation.run();
    await stall.started;
    await conversation.pause();
    stall.release();
    expect((await running).status).toBe('paused');
    expect(await effects()).toEqual([]);
    const [stalled, effect] = (await allEvents(conversation)).filter((event) => event.kind === 'ActionEvent');
    expect((await conversation.pendingActions()).map((action) => action.id)).toEqual([effect!.id]);

    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual(['after-stall']);
    expect(await answersOf(conversation, stalled!.id)).toEqual(['ObservationEvent']);
    expect(await answersOf(conversation, effect!.id)).toEqual(['ObservationEvent']);
    await conversation.close();
  });
});

function recordCall(label: string) {
  return { name: 'record_effect', arguments: { label } };
}

describe('decisions on a batch of parallel calls (approve some, deny one), with a pause between two of them', () => {
  it('runs each approved call once and answers the denied one once, in the reference kinds', async () => {
    harness = await startHarness([
      { toolCalls: [recordCall('one'), recordCall('two'), recordCall('three')] },
      DONE_REPLY,
    ]);
    const { conversation } = await harness.conversation({
      agent: harness.agent({ tools: [effectTool] }),
      confirmationPolicy: { kind: 'AlwaysConfirm' },
    });
    await conversation.sendMessage('go');
    expect((await conversation.run()).status).toBe('waiting_for_confirmation');
    const [one, two, three] = await conversation.pendingActions();
    const decisions = [
      { action_id: one!.id, decision: { kind: 'approve' as const } },
      { action_id: two!.id, decision: { kind: 'deny' as const, reason: 'Not this one.' } },
      { action_id: three!.id, decision: { kind: 'approve' as const } },
    ];
    expect(await conversation.decide(decisions, { principal: 'alice' })).toHaveLength(3);
    // The first approved call's result is in: the pause lands before the third starts.
    const paused = pauseAt(conversation, (event) => event.kind === 'ObservationEvent' && event.action_id === one!.id);
    expect((await conversation.run()).status).toBe('paused');
    await paused;
    expect(await effects()).toEqual(['one']);
    expect(await conversation.decide(decisions, { principal: 'alice' })).toEqual([]);
    expect(conversation.state.execution_status).toBe('paused');

    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual(['one', 'three']);
    expect(await answersOf(conversation, one!.id)).toEqual(['ObservationEvent']);
    expect(await answersOf(conversation, two!.id)).toEqual(['UserRejectObservation']);
    expect(await answersOf(conversation, three!.id)).toEqual(['ObservationEvent']);
    const rejection = (await allEvents(conversation)).find((event) => event.kind === 'UserRejectObservation');
    expect(rejection).toMatchObject({ rejection_reason: 'Not this one.', tool_call_id: two!.tool_call_id });
    await conversation.close();
  });
});

describe('condense() while actions wait for a decision', () => {
  it('is refused with ActionsAwaitDecisionError: its step would execute them undecided; nothing is recorded', async () => {
    harness = await startHarness([recordEffectCall('undecided'), DONE_REPLY]);
    const llm = harness.agent().llm;
    const condenser = new LLMSummarizingCondenser({ llm, maxSize: 200, keepFirst: 2 });
    const { conversation } = await harness.conversation({
      agent: harness.agent({ tools: [effectTool], condenser }),
      confirmationPolicy: { kind: 'AlwaysConfirm' },
    });
    await conversation.sendMessage('go');
    expect((await conversation.run()).status).toBe('waiting_for_confirmation');
    const [action] = await conversation.pendingActions();
    const length = conversation.log.length;
    await expect(conversation.condense()).rejects.toSatisfy(
      (error) =>
        ActionsAwaitDecisionError.isInstance(error) &&
        (error as ActionsAwaitDecisionError).code === 'actions_await_decision' &&
        (error as Error).message.includes(action!.id),
    );
    expect(await effects()).toEqual([]);
    expect(conversation.log.length).toBe(length);
    expect(conversation.state.execution_status).toBe('waiting_for_confirmation');
    await conversation.close();
  });
});

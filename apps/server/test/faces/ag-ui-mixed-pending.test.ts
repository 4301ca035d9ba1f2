// A run whose model called a frontend tool and a server tool in one reply, under a policy that confirms every action,
// leaves the thread waiting for two things: the client's result for the frontend call and the user's answer to the
// confirmation. Judged by `@ag-ui/client`'s HttpAgent against a real server: the interrupt outcome (which has no
// `pendingToolCallIds`) names both, so a client that reattached after the calls were streamed still knows the frontend
// call waits for it; the frontend call's resume entry only acknowledges it, its result being its tool message.
import { randomUUID } from 'node:crypto';
import type { Interrupt, ResumeEntry, Tool } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { collect, runToEnd as run, XAgent } from '../support/ag-ui-agent.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const pickColor: Tool = {
  name: 'pick_color',
  description: 'Lets the user pick a color in the browser',
  parameters: { type: 'object', properties: {} },
};

/** A thread whose model called `pick_color` (`call_pick`) and `terminal` (`call_echo`) in one reply, all confirmed. */
async function threadWaitingForBoth(): Promise<{ agent: XAgent; threadId: string }> {
  const threadId = randomUUID();
  server.llm.push({
    toolCalls: [
      { id: 'call_pick', name: 'pick_color', arguments: {} },
      { id: 'call_echo', name: 'terminal', arguments: { command: 'echo mixed-step' } },
    ],
  });
  const agent = new XAgent(server.url, threadId);
  agent.addMessage({ id: randomUUID(), role: 'user', content: 'Let me pick a color, then echo' });
  await agent.runAgent({
    tools: [pickColor],
    forwardedProps: {
      conversation: createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } }),
    },
  });
  return { agent, threadId };
}

async function pendingOf(threadId: string) {
  const conversation = await (await server.built.manager.require(threadId)).open();
  return conversation.pendingActions();
}

async function observationsOf(threadId: string): Promise<Record<string, string>> {
  const conversation = await (await server.built.manager.require(threadId)).open();
  const events = await conversation.log.range(0, conversation.log.length);
  const texts: Record<string, string> = {};
  for (const event of events) {
    if (event.kind === 'ObservationEvent' || event.kind === 'UserRejectObservation') {
      texts[event.tool_call_id] = JSON.stringify(event);
    }
  }
  return texts;
}

/** Answers every interrupt: the confirmation with `confirmation`, the frontend call's with a bare acknowledgement. */
function resumeOf(interrupts: readonly Interrupt[], confirmation: unknown): ResumeEntry[] {
  return interrupts.map((interrupt) =>
    interrupt.reason === 'confirmation'
      ? { interruptId: interrupt.id, status: 'resolved', payload: confirmation }
      : { interruptId: interrupt.id, status: 'resolved' },
  );
}

describe('a run waiting for a frontend result and a confirmation', () => {
  it('names both in its interrupt, for the client that saw the run and for one that reattaches after it', async () => {
    const { agent, threadId } = await threadWaitingForBoth();
    const [pick, echo] = await pendingOf(threadId);
    expect([pick?.tool_call_id, echo?.tool_call_id]).toEqual(['call_pick', 'call_echo']);
    const expected = [
      {
        id: pick?.id,
        reason: 'tool_call',
        message: "Run pick_color and send its result as a message with role 'tool' and toolCallId 'call_pick'",
        toolCallId: 'call_pick',
      },
      { id: echo?.id, reason: 'confirmation', message: 'Confirm running terminal', toolCallId: 'call_echo' },
    ];
    expect(agent.pendingInterrupts).toEqual(expected);

    const managed = await server.built.manager.require(threadId);
    const reloaded = new XAgent(server.url, threadId);
    reloaded.lastEventId = managed.log.length - 1;
    const reattached = await run(reloaded, { tools: [pickColor] });
    expect(reattached.some((event) => event.type === 'TOOL_CALL_START')).toBe(false);
    expect(reloaded.pendingInterrupts).toEqual(expected);
  });

  it('goes on once the tool message and an answer to each interrupt come: the call’s result recorded, the action run', async () => {
    const { agent, threadId } = await threadWaitingForBoth();
    server.llm.push(finishReply('Red, and echoed.'));
    agent.addMessage({ id: randomUUID(), role: 'tool', toolCallId: 'call_pick', content: 'red' });
    // The frontend call's entry has no approval in it: it must not be read as a refusal of the confirmation.
    const events = await run(agent, {
      tools: [pickColor],
      resume: resumeOf(agent.pendingInterrupts, { approved: true }),
    });
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    const observations = await observationsOf(threadId);
    expect(observations.call_pick).toContain('"text":"red"');
    expect(observations.call_echo).toContain('mixed-step');
    expect(observations.call_echo).not.toContain('UserRejectObservation');
    expect(agent.pendingInterrupts).toEqual([]);
  });

  it('records the frontend result and the refusal, with its reason, when the confirmation is refused', async () => {
    const { agent, threadId } = await threadWaitingForBoth();
    server.llm.push(finishReply('Red, not echoed.'));
    agent.addMessage({ id: randomUUID(), role: 'tool', toolCallId: 'call_pick', content: 'red' });
    const resume = resumeOf(agent.pendingInterrupts, { approved: false, reason: 'not now' });
    const events = await run(agent, { tools: [pickColor], resume });
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'TOOL_CALL_RESULT',
        toolCallId: 'call_echo',
        content: 'Action rejected: not now',
      }),
    );
    const observations = await observationsOf(threadId);
    expect(observations.call_pick).toContain('"text":"red"');
    expect(observations.call_echo).toContain('UserRejectObservation');
  });

  it('refuses answers to the interrupts without the frontend call’s tool message, naming the call', async () => {
    const { agent, threadId } = await threadWaitingForBoth();
    const events = collect(agent);
    await agent
      .runAgent({ tools: [pickColor], resume: resumeOf(agent.pendingInterrupts, { approved: true }) })
      .catch(() => undefined);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'pending_tool_call' });
    expect((events.at(-1) as { message?: string }).message).toContain("'call_pick' (pick_color)");
    expect((await pendingOf(threadId)).map((action) => action.tool_call_id)).toEqual(['call_pick', 'call_echo']);
  });
});

// AG-UI 1.0's coverage rule: a run input that acts must answer every interrupt the thread has open, each once.
// `@ag-ui/client` refuses to send one that does not, but a client that never saw the interrupt (a second tab, another
// client library, a raw request) can. Taking it would start a run, and a run executes the actions waiting for
// confirmation: a user's "no, wait" would approve them. Judged through HttpAgent against a real server.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { runToEnd as run, XAgent } from '../support/ag-ui-agent.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

/** A thread whose model asked to run two commands, both waiting for confirmation. */
async function threadWaitingForTwo(): Promise<{ agent: XAgent; threadId: string }> {
  const threadId = randomUUID();
  server.llm.push({
    toolCalls: [
      { id: 'call_one', name: 'terminal', arguments: { command: 'echo one' } },
      { id: 'call_two', name: 'terminal', arguments: { command: 'echo two' } },
    ],
  });
  const agent = new XAgent(server.url, threadId);
  agent.addMessage({ id: randomUUID(), role: 'user', content: 'Echo twice' });
  await agent.runAgent({
    forwardedProps: {
      conversation: createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } }),
    },
  });
  expect(agent.pendingInterrupts.map((interrupt) => interrupt.reason)).toEqual(['confirmation', 'confirmation']);
  return { agent, threadId };
}

async function logOf(threadId: string) {
  const conversation = await (await server.built.manager.require(threadId)).open();
  const events = await conversation.log.range(0, conversation.log.length);
  return {
    pending: (await conversation.pendingActions()).map((action) => action.tool_call_id),
    kinds: events.map((event) => event.kind),
    observed: events.flatMap((event) => (event.kind === 'ObservationEvent' ? [event.tool_call_id] : [])),
    userTexts: events.flatMap((event) =>
      event.kind === 'MessageEvent' && event.source === 'user'
        ? [event.llm_message.content.map((part) => ('text' in part ? part.text : '')).join('')]
        : [],
    ),
  };
}

/** A client for the thread that never saw its interrupts: it sends what `@ag-ui/client` would refuse to. */
function unawareClient(threadId: string): XAgent {
  const agent = new XAgent(server.url, threadId);
  agent.addMessage({ id: randomUUID(), role: 'user', content: 'No, wait!' });
  return agent;
}

describe('an AG-UI input while confirmations wait', () => {
  it('refuses a new message that answers no interrupt, naming them, and approves nothing', async () => {
    const { threadId } = await threadWaitingForTwo();
    const [one, two] = (await (await (await server.built.manager.require(threadId)).open()).pendingActions()).map(
      (action) => action.id,
    );
    const before = await logOf(threadId);
    const events = await run(unawareClient(threadId));
    const error = events.at(-1) as { type: string; code?: string; message?: string };
    expect(error).toMatchObject({ type: 'RUN_ERROR', code: 'unanswered_interrupt' });
    expect(error.message).toContain(`'${one}' (terminal)`);
    expect(error.message).toContain(`'${two}' (terminal)`);
    // Nothing recorded: no user message, no observation; both actions still wait.
    expect(await logOf(threadId)).toEqual(before);
    expect(before.pending).toEqual(['call_one', 'call_two']);
  });

  it('refuses a resume that answers one of two interrupts, and one that answers an interrupt twice', async () => {
    const { agent, threadId } = await threadWaitingForTwo();
    const [first, second] = agent.pendingInterrupts;
    const before = await logOf(threadId);
    const partial = await run(unawareClient(threadId), {
      resume: [{ interruptId: first?.id ?? '', status: 'resolved', payload: { approved: true } }],
    });
    expect(partial.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'unanswered_interrupt' });
    expect((partial.at(-1) as { message?: string }).message).toContain(`'${second?.id}'`);
    expect((partial.at(-1) as { message?: string }).message).not.toContain(`'${first?.id}'`);

    const twice = await run(new XAgent(server.url, threadId), {
      resume: [
        { interruptId: first?.id ?? '', status: 'resolved', payload: { approved: true } },
        { interruptId: second?.id ?? '', status: 'resolved', payload: { approved: true } },
        { interruptId: first?.id ?? '', status: 'resolved', payload: { approved: false } },
      ],
    });
    expect(twice.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'unanswered_interrupt' });
    expect((twice.at(-1) as { message?: string }).message).toContain(`'${first?.id}' is answered twice`);
    expect(await logOf(threadId)).toEqual(before);
  });

  it('goes on when every interrupt is answered, taking the message that came with the answers', async () => {
    const { agent, threadId } = await threadWaitingForTwo();
    server.llm.push(finishReply('Echoed both'));
    const resume = agent.pendingInterrupts.map((interrupt) => ({
      interruptId: interrupt.id,
      status: 'resolved' as const,
      payload: { approved: true },
    }));
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Go ahead' });
    const events = await run(agent, { resume });
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    const after = await logOf(threadId);
    expect(after.pending).toEqual([]);
    expect(after.observed).toEqual(expect.arrayContaining(['call_one', 'call_two']));
    expect(after.userTexts.at(-1)).toBe('Go ahead');
  });

  it('takes a new message while a run is running its action (not waiting for it): the input joins the run', async () => {
    const threadId = randomUUID();
    server.llm.push({ toolCalls: [{ id: 'call_sleep', name: 'terminal', arguments: { command: 'sleep 600' } }] });
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Sleep' });
    const first = run(agent, { forwardedProps: { conversation: createRequest(server.llm) } });
    await expect.poll(async () => (await server.built.manager.get(threadId)) !== undefined).toBe(true);
    const managed = await server.built.manager.require(threadId);
    await expect
      .poll(async () => managed.isRunning && (await logOf(threadId)).pending.includes('call_sleep'))
      .toBe(true);
    const joined = run(unawareClient(threadId));
    await expect.poll(async () => (await logOf(threadId)).userTexts.at(-1)).toBe('No, wait!');
    const interrupted = await server.call('POST', `/api/conversations/${threadId}/interrupt`);
    expect(interrupted.status).toBe(200);
    const [firstEvents, joinedEvents] = await Promise.all([first, joined]);
    for (const events of [firstEvents, joinedEvents]) {
      expect(events.filter((event) => event.type === 'RUN_ERROR')).toEqual([]);
    }
  });

  it('takes a bare re-run that acts on nothing (a reattach), leaving the interrupts open', async () => {
    const { threadId } = await threadWaitingForTwo();
    const before = await logOf(threadId);
    const reattached = new XAgent(server.url, threadId);
    const events = await run(reattached);
    expect(events.some((event) => event.type === 'RUN_ERROR')).toBe(false);
    expect(reattached.pendingInterrupts).toHaveLength(2);
    expect(await logOf(threadId)).toEqual(before);
  });
});

// How an AG-UI run's stream ends, by the conversation's status when its run is over (judged by `@ag-ui/client`'s
// HttpAgent against `x serve`): a run that ended in error is a RUN_ERROR carrying the status and the logged error, a
// run interrupted by the user is RUN_FINISHED `cancelled`, and a confirmation interrupt names the action and its call.
import { randomUUID } from 'node:crypto';
import { getEventError } from '@x/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { runToEnd as run, XAgent } from '../support/ag-ui-agent.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('AG-UI run outcomes', () => {
  it('ends a run the model failed with RUN_ERROR: the status as code, the logged error as message', async () => {
    const threadId = randomUUID();
    server.llm.push({ error: { status: 400, message: 'the provider refused this request' } });
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Fail please' });
    const events = await run(agent, { forwardedProps: { conversation: createRequest(server.llm) } });
    const conversation = await (await server.built.manager.require(threadId)).open();
    expect(conversation.state.execution_status).toBe('error');
    const errors = (await conversation.log.range(0, conversation.log.length)).filter(
      (event) => event.kind === 'ConversationErrorEvent',
    );
    expect(errors).toHaveLength(1);
    // AG-UI 1.0 is the protocol this face speaks.
    expect(events[0]).toMatchObject({ type: 'RUN_STARTED', threadId, protocolVersion: '1.0' });
    const last = events.at(-1) as { type: string; code?: string; message?: string };
    expect(last.type).toBe('RUN_ERROR');
    expect(last.code).toBe('error');
    // The message of the error the log holds (never the generic fallback).
    expect(last.message).not.toMatch(/^The run ended with status/);
    const logged = errors[0] === undefined ? undefined : getEventError(errors[0])?.message;
    expect(logged).toBeTruthy();
    expect(last.message).toBe(logged);
    expect(events.some((event) => event.type === 'RUN_FINISHED')).toBe(false);
  });

  it('ends a run the user interrupted with RUN_FINISHED, outcome cancelled', async () => {
    const threadId = randomUUID();
    // One reply only: the interrupted run asks the model nothing more.
    server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'sleep 600' } }] });
    const agent = new XAgent(server.url, threadId);
    let interrupted: Promise<unknown> | undefined;
    agent.subscribe({
      onEvent: ({ event }) => {
        // The action is logged: interrupt the run (its command is aborted, status `paused`).
        if (event.type === 'TOOL_CALL_START' && interrupted === undefined) {
          interrupted = server.call('POST', `/api/conversations/${threadId}/interrupt`);
        }
      },
    });
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Wait a long time' });
    const events = await run(agent, { forwardedProps: { conversation: createRequest(server.llm) } });
    expect(await interrupted).toMatchObject({ status: 200 });
    const conversation = await (await server.built.manager.require(threadId)).open();
    expect(conversation.state.execution_status).toBe('paused');
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', threadId, outcome: { type: 'cancelled' } });
  });

  it('names the pending action and its tool call in a confirmation interrupt', async () => {
    const threadId = randomUUID();
    server.llm.push({ toolCalls: [{ id: 'call_risky', name: 'terminal', arguments: { command: 'echo hi' } }] });
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Do the risky thing' });
    const events = await run(agent, {
      forwardedProps: { conversation: createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } }) },
    });
    const conversation = await (await server.built.manager.require(threadId)).open();
    const [pending] = await conversation.pendingActions();
    expect(events.at(-1)).toEqual(
      expect.objectContaining({
        type: 'RUN_FINISHED',
        threadId,
        outcome: {
          type: 'interrupt',
          interrupts: [
            { id: pending?.id, reason: 'confirmation', message: 'Confirm running terminal', toolCallId: 'call_risky' },
          ],
        },
      }),
    );
  });
});

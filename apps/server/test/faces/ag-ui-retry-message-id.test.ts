// A retried AG-UI run judged by `@ag-ui/client`'s HttpAgent against a real server: the user message a run records
// keeps the client's message id (the MessageEvent's id), so a retry that sends it again (same threadId, same message
// id) is known by that id. It is not recorded a second time, even where the log holds other user messages before it
// that the retrying client never saw, and a turn the agent already answered starts no second step.
import { randomUUID } from 'node:crypto';
import type { MessageEvent } from '@x/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { runToEnd, XAgent } from '../support/ag-ui-agent.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

/** The thread's user messages in log order: their event ids and texts. */
async function userMessages(threadId: string): Promise<Array<{ id: string; text: string }>> {
  const conversation = await server.built.manager.require(threadId);
  const events = await conversation.log.range(0, conversation.log.length);
  return events
    .filter((event): event is MessageEvent => event.kind === 'MessageEvent' && event.source === 'user')
    .map((event) => ({
      id: event.id,
      text: event.llm_message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
    }));
}

describe("an AG-UI run retried with the client's message id", () => {
  it('records the message once under its id, also after user messages the retrying client never saw', async () => {
    const threadId = randomUUID();
    const create = createRequest(server.llm);
    const first = new XAgent(server.url, threadId);
    const firstId = randomUUID();
    first.addMessage({ id: firstId, role: 'user', content: 'First' });
    server.llm.push(finishReply('One.'));
    expect((await runToEnd(first, { forwardedProps: { conversation: create } })).at(-1)?.type).toBe('RUN_FINISHED');

    // Another client of the thread (a reloaded page) knows none of it; its turn fails, and it retries it.
    const second = new XAgent(server.url, threadId);
    const secondId = randomUUID();
    second.addMessage({ id: secondId, role: 'user', content: 'Second' });
    server.llm.push({ error: { status: 400, message: 'the provider refused this request' } });
    expect((await runToEnd(second)).at(-1)?.type).toBe('RUN_ERROR');
    server.llm.push(finishReply('Two.'));
    expect((await runToEnd(second)).at(-1)?.type).toBe('RUN_FINISHED');

    expect(await userMessages(threadId)).toEqual([
      { id: firstId, text: 'First' },
      { id: secondId, text: 'Second' },
    ]);
    const lastRequest = JSON.stringify(server.llm.requests.at(-1)?.messages);
    expect(lastRequest.split('Second').length - 1).toBe(1);
  });

  it('starts no second step for a turn the agent answered when the same message comes again', async () => {
    const threadId = randomUUID();
    const messageId = randomUUID();
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: messageId, role: 'user', content: 'Hi' });
    server.llm.push(finishReply('Hello.'));
    const create = createRequest(server.llm);
    expect((await runToEnd(agent, { forwardedProps: { conversation: create } })).at(-1)?.type).toBe('RUN_FINISHED');
    const requests = server.llm.requests.length;

    // The same turn sent again by a client that lost the answer (its connection dropped): same thread, same id.
    const again = new XAgent(server.url, threadId);
    again.addMessage({ id: messageId, role: 'user', content: 'Hi' });
    const events = await runToEnd(again);
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    expect(server.llm.requests.length).toBe(requests);
    expect(await userMessages(threadId)).toEqual([{ id: messageId, text: 'Hi' }]);
  });
});

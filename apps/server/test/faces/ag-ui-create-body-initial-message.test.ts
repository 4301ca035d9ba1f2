// A new AG-UI thread whose create body (`forwardedProps.conversation`, the same body as POST /api/conversations) holds
// an `initial_message`, judged by `@ag-ui/client`'s HttpAgent against `x serve`: the thread's messages are the run
// input's `messages`, so that message is not recorded or run (as the A2A, MCP and OpenAI faces leave it out). Taken,
// it started a run of its own on a message the client never sent, whose answer the client got, and a retry of the
// client's turn no longer matched the log (its message was recorded twice).
import { randomUUID } from 'node:crypto';
import type { MessageEvent } from '@x/events';
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

/** The texts of the thread's user messages, in log order. */
async function userTexts(threadId: string): Promise<string[]> {
  const conversation = await server.built.manager.require(threadId);
  const events = await conversation.log.range(0, conversation.log.length);
  return events
    .filter((event): event is MessageEvent => event.kind === 'MessageEvent' && event.source === 'user')
    .map((event) => event.llm_message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''));
}

describe('an AG-UI create body with an initial_message', () => {
  it('records and runs only the input’s messages: one model call, which never read the initial message', async () => {
    const threadId = randomUUID();
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'List the files' });
    const requests = server.llm.requests.length;
    server.llm.push(finishReply('Nothing here.'));
    const events = await run(agent, {
      forwardedProps: { conversation: createRequest(server.llm, { initial_message: { content: 'Say hi' } }) },
    });
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(await userTexts(threadId)).toEqual(['List the files']);
    expect(server.llm.requests.length).toBe(requests + 1);
    expect(JSON.stringify(server.llm.requests.at(-1)?.messages)).not.toContain('Say hi');
  });

  it('records a retried turn once', async () => {
    const threadId = randomUUID();
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'List the files' });
    const create = createRequest(server.llm, { initial_message: { content: 'Say hi' } });
    server.llm.push({ error: { status: 400, message: 'the model refused' } });
    const failed = await run(agent, { forwardedProps: { conversation: create } });
    expect(failed.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'error' });
    server.llm.push(finishReply('Nothing here.'));
    const retried = await run(agent, { forwardedProps: { conversation: create } });
    expect(retried.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(await userTexts(threadId)).toEqual(['List the files']);
  });
});

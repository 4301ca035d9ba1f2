// A run retried after it failed, judged by `@ag-ui/client`'s HttpAgent against a real server: the client's thread
// holds only its own user message (the failed run sent no message of the agent's), so a retry sends the same
// messages again. The server already has that message: it is recorded once, and the model's next request has it once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { runToEnd, XAgent } from '../support/ag-ui-agent.js';
import { userTextsSeen } from './a2a-client-support.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

async function userMessagesLogged(threadId: string): Promise<string[]> {
  const conversation = await (await server.built.manager.require(threadId)).open();
  const events = await conversation.log.range(0, conversation.log.length);
  return events.flatMap((event) =>
    event.kind === 'MessageEvent' && event.source === 'user'
      ? [event.llm_message.content.map((part) => ('text' in part ? part.text : '')).join('')]
      : [],
  );
}

describe('an AG-UI run retried after a failure', () => {
  it('records the user message the failed run already took once, and the retry answers it', async () => {
    const threadId = randomUUID();
    server.llm.push({ error: { status: 400, message: 'the provider refused this request' } });
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Answer me' });
    const failed = await runToEnd(agent, { forwardedProps: { conversation: createRequest(server.llm) } });
    expect(failed.at(-1)?.type).toBe('RUN_ERROR');

    server.llm.push(finishReply('Answered.'));
    const retried = await runToEnd(agent);
    expect(retried.at(-1)?.type).toBe('RUN_FINISHED');
    expect(await userMessagesLogged(threadId)).toEqual(['Answer me']);
    expect(userTextsSeen(server.llm).filter((text) => text.includes('Answer me'))).toHaveLength(1);
  });

  it('records what the client added after the failed turn, the same words again included', async () => {
    const threadId = randomUUID();
    server.llm.push({ error: { status: 400, message: 'the provider refused this request' } });
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Hello?' });
    await runToEnd(agent, { forwardedProps: { conversation: createRequest(server.llm) } });

    // The user, seeing no answer, says it again: a new turn of the same words, after the one the thread took.
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Hello?' });
    server.llm.push(finishReply('Hi.'));
    expect((await runToEnd(agent)).at(-1)?.type).toBe('RUN_FINISHED');
    expect(await userMessagesLogged(threadId)).toEqual(['Hello?', 'Hello?']);
  });
});

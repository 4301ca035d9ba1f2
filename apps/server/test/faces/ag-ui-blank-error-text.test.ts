// A run that ended in error, its logged error of no words (an empty or blank detail), judged by `@ag-ui/client`'s
// HttpAgent against a real server: the RUN_ERROR carries the fallback a run with no logged error gets, never an empty
// message. The detail is made blank by editing the logged error (the agent's `editEvent`), then the client reattaches
// to the thread just before the edited copy.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { runToEnd, XAgent } from '../support/ag-ui-agent.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

/** A thread whose run failed, its logged error's detail then replaced by `detail`: the index of the copy. */
async function failedThreadWithDetail(threadId: string, detail: string): Promise<number> {
  server.llm.push({ error: { status: 400, message: 'the provider refused this request' } });
  const agent = new XAgent(server.url, threadId);
  agent.addMessage({ id: randomUUID(), role: 'user', content: 'Fail please' });
  const failed = await runToEnd(agent, { forwardedProps: { conversation: createRequest(server.llm) } });
  expect(failed.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'error' });
  const conversation = await (await server.built.manager.require(threadId)).open();
  const events = await conversation.log.range(0, conversation.log.length);
  const logged = events.find((event) => event.kind === 'ConversationErrorEvent');
  if (logged === undefined) throw new Error('the failed run logged no ConversationErrorEvent');
  const copy = await conversation.editEvent(logged.id, { detail });
  expect(conversation.state.execution_status).toBe('error');
  return conversation.log.indexOf(copy.id);
}

describe('an AG-UI RUN_ERROR whose logged error has no words', () => {
  for (const [name, detail] of [
    ['an empty', ''],
    ['a blank', ' \n\t '],
  ] as const) {
    it(`gives the status fallback for ${name} detail, not the detail`, async () => {
      const threadId = randomUUID();
      const copyAt = await failedThreadWithDetail(threadId, detail);
      const reattached = new XAgent(server.url, threadId);
      reattached.lastEventId = copyAt - 1;
      const events = await runToEnd(reattached);
      expect(events.at(-1)).toEqual({ type: 'RUN_ERROR', code: 'error', message: "The run ended with status 'error'" });
    });
  }

  it('still gives a detail that says something as it is, spaces and all', async () => {
    const threadId = randomUUID();
    const copyAt = await failedThreadWithDetail(threadId, '  disk full  ');
    const reattached = new XAgent(server.url, threadId);
    reattached.lastEventId = copyAt - 1;
    const events = await runToEnd(reattached);
    expect(events.at(-1)).toEqual({ type: 'RUN_ERROR', code: 'error', message: '  disk full  ' });
  });
});

// A message sent with `run: true` while the run in progress is stopping (a pause asked for, the model call still in
// flight) asks for the next run, as it would a moment later once the run had ended: it runs, with the message. The
// other order keeps its meaning too: a pause asked for after such a message stops the run, and nothing reruns.
import { afterEach, describe, expect, it } from 'vitest';
import {
  createConversation,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  waitFor,
  waitForIdle,
} from './helpers.js';

let server: TestServer | undefined;

afterEach(async () => {
  if (server === undefined) return;
  await server.stop();
  await removeDir(server.dataDir);
  server = undefined;
});

/** A promise the test resolves by hand (an LLM reply held until the test is ready). */
function manualGate(): { promise: Promise<void>; open(): void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const message = (text: string, run: boolean) => ({ role: 'user', content: [{ type: 'text', text }], run });

const statusOf = async (server: TestServer, id: string): Promise<unknown> =>
  ((await server.call('GET', `/api/conversations/${id}`)).json as { execution_status: unknown }).execution_status;

const messageCount = async (server: TestServer, id: string): Promise<unknown> =>
  (await server.call('GET', `/api/conversations/${id}/events/count?kind=MessageEvent`)).json;

/** A run whose first model call is held by `gate`, answered with a command (a step the run goes on after). */
async function runHeldAtFirstCall(server: TestServer, gate: Promise<void>): Promise<string> {
  const id = await createConversation(server);
  await server.call('POST', `/api/conversations/${id}/events`, message('go', false));
  server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo one' } }], gate });
  expect((await server.call('POST', `/api/conversations/${id}/run`)).status).toBe(200);
  await server.llm.waitForRequests(1);
  return id;
}

describe('a message with run sent while the run is stopping', () => {
  it('runs the message once the paused run has ended, instead of leaving it unanswered', async () => {
    server = await startTestServer();
    const answer = manualGate();
    const id = await runHeldAtFirstCall(server, answer.promise);
    expect((await server.call('POST', `/api/conversations/${id}/pause`)).status).toBe(200);
    expect(await statusOf(server, id)).toBe('paused');
    server.llm.push(finishReply('answered'));
    const sent = server.call('POST', `/api/conversations/${id}/events`, message('then this', true));
    // Recorded while the paused run is still in its model call.
    await waitFor(async () => (await messageCount(server as TestServer, id)) === 2);
    answer.open();
    expect(await sent).toEqual({ status: 200, json: { success: true } });
    expect((await waitForIdle(server, id)).execution_status).toBe('finished');
    expect(server.llm.requests).toHaveLength(2);
    expect(JSON.stringify(server.llm.requests[1])).toContain('then this');
  });

  it('stays paused when the pause was asked for after the message', async () => {
    server = await startTestServer();
    const answer = manualGate();
    const id = await runHeldAtFirstCall(server, answer.promise);
    expect(await server.call('POST', `/api/conversations/${id}/events`, message('then this', true))).toEqual({
      status: 200,
      json: { success: true },
    });
    expect((await server.call('POST', `/api/conversations/${id}/pause`)).status).toBe(200);
    answer.open();
    expect((await waitForIdle(server, id)).execution_status).toBe('paused');
    expect(server.llm.requests).toHaveLength(1);
  });
});

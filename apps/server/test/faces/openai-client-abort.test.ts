// A client that gives up on a completion, judged with the official `openai` SDK against a real server: aborting a
// stream in the middle (`stream.controller.abort()`) or a whole completion (an AbortSignal) interrupts the agent's run,
// so nothing is left running for nobody: the model call in flight is closed, no further call is made, and the
// conversation is paused with an InterruptEvent in its log.
import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, type TestServer, waitFor } from '../helpers.js';
import { CONVERSATION_HEADER, rejectionOf, startGateway } from '../support/openai-gateway.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  ({ server, client } = await startGateway());
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

/** Waits until the conversation's run is over, then what its log and status say. */
async function afterRun(conversationId: string) {
  const managed = await server.built.manager.require(conversationId);
  await waitFor(async () => !managed.isRunning);
  const conversation = await managed.open();
  const events = await conversation.log.range(0, conversation.log.length);
  return { status: conversation.state.execution_status, kinds: events.map((event) => event.kind) };
}

describe('a client that aborts', () => {
  it('mid-stream: the run is interrupted, its model call closed, and nothing more is asked', async () => {
    server.llm.push({ hang: true });
    const before = server.llm.requests.length;
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'x-terminal', messages: [{ role: 'user', content: 'Think for ever' }], stream: true })
      .withResponse();
    const conversationId = response.headers.get(CONVERSATION_HEADER) as string;
    const iterator = stream[Symbol.asyncIterator]();
    // The role chunk: the run has started.
    expect((await iterator.next()).value?.choices[0]?.delta.role).toBe('assistant');
    await server.llm.waitForRequests(before + 1);
    stream.controller.abort();

    await server.llm.waitForClientClose(before);
    const { status, kinds } = await afterRun(conversationId);
    expect(status).toBe('paused');
    expect(kinds).toContain('InterruptEvent');
    expect(server.llm.requests.length).toBe(before + 1);
  });

  it('a whole completion through its AbortSignal: the same', async () => {
    server.llm.push({ hang: true });
    const before = server.llm.requests.length;
    const conversationId = randomUUID();
    const abort = new AbortController();
    const pending = client.chat.completions.create(
      { model: 'x-terminal', messages: [{ role: 'user', content: 'Think for ever' }] },
      { signal: abort.signal, headers: { [CONVERSATION_HEADER]: conversationId } },
    );
    await server.llm.waitForRequests(before + 1);
    abort.abort();
    expect(await rejectionOf(pending)).toBeInstanceOf(OpenAI.APIUserAbortError);

    await server.llm.waitForClientClose(before);
    const { status, kinds } = await afterRun(conversationId);
    expect(status).toBe('paused');
    expect(kinds).toContain('InterruptEvent');
    expect(server.llm.requests.length).toBe(before + 1);
  });

  it('leaves a finished conversation as it was when the client leaves after its answer', async () => {
    server.llm.push({ toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] });
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'x-terminal', messages: [{ role: 'user', content: 'Be quick' }], stream: true })
      .withResponse();
    const chunks: string[] = [];
    for await (const chunk of stream) chunks.push(chunk.choices[0]?.delta.content ?? '');
    expect(chunks.join('')).toBe('done');
    const { status, kinds } = await afterRun(response.headers.get(CONVERSATION_HEADER) as string);
    expect(status).toBe('finished');
    expect(kinds).not.toContain('InterruptEvent');
  });
});

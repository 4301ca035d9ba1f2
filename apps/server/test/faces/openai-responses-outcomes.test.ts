// How a Responses request ends when the run does not simply answer, judged by the official `openai` SDK against a
// real server whose agent uses the scripted model on loopback: a failed run is the error the chat face would answer
// (500 `agent_run_failed`, a provider's rate limit a RateLimitError), never retried by the SDK, and a streamed one is
// then retrieved as failed; a client that aborts a whole request interrupts the run; a conversation still running
// refuses a follow-up; a header naming another conversation than previous_response_id's is refused.
import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, type TestServer, waitFor } from '../helpers.js';
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

/** A streamed response whose first event (`response.created`) has arrived: its run has started. */
async function startedStream(input: string) {
  const { data: stream, response } = await client.responses
    .create({ model: 'x-terminal', input, stream: true })
    .withResponse();
  const created = (await stream[Symbol.asyncIterator]().next()).value as OpenAI.Responses.ResponseCreatedEvent;
  return { stream, created, conversationId: response.headers.get(CONVERSATION_HEADER) as string };
}

describe('a run that fails', () => {
  it('is a 500 agent_run_failed, not retried', async () => {
    const retrying = new OpenAI({ apiKey: client.apiKey, baseURL: client.baseURL }); // the SDK's default retries
    server.llm.push({ error: { status: 400, message: 'the model refused the request' } });
    const before = server.llm.requests.length;
    const error = await rejectionOf(retrying.responses.create({ model: 'x-terminal', input: 'fail' }));
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(error).toMatchObject({ code: 'agent_run_failed' });
    expect((error as Error).message).toContain('ended with status error');
    expect(server.llm.requests.length - before).toBe(1);
  });

  it("the provider's rate limit is a RateLimitError", async () => {
    server.llm.push({
      error: { status: 429, message: 'slow down', code: 'rate_limit_exceeded' },
      headers: { 'x-should-retry': 'false' },
    });
    const error = await rejectionOf(client.responses.create({ model: 'x-terminal', input: 'Go' }));
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
  });

  it('is retrieved as failed once streamed, with the error a whole request answered', async () => {
    server.llm.push({ error: { status: 400, message: 'refused' } });
    const failing = await client.responses.create({ model: 'x-terminal', input: 'fail', stream: true });
    let failedId = '';
    for await (const event of failing) if (event.type === 'response.failed') failedId = event.response.id;
    const failed = await client.responses.retrieve(failedId);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'agent_run_failed' }, output: [] });
  });
});

describe('a client that aborts a whole request', () => {
  it('interrupts the run through its AbortSignal', async () => {
    server.llm.push({ hang: true });
    const before = server.llm.requests.length;
    const conversationId = randomUUID();
    const abort = new AbortController();
    const pending = client.responses.create(
      { model: 'x-terminal', input: 'Think for ever', metadata: { case: 'abort' } },
      { signal: abort.signal, headers: { [CONVERSATION_HEADER]: conversationId } },
    );
    await server.llm.waitForRequests(before + 1);
    abort.abort();
    expect(await rejectionOf(pending)).toBeInstanceOf(OpenAI.APIUserAbortError);

    await server.llm.waitForClientClose(before);
    const managed = await server.built.manager.require(conversationId);
    await waitFor(async () => !managed.isRunning);
    expect((await managed.open()).state.execution_status).toBe('paused');
    expect(server.llm.requests.length).toBe(before + 1);
  });
});

describe('following up', () => {
  it('on a response whose run is still working is a 409, nothing more run', async () => {
    server.llm.push({ hang: true });
    const before = server.llm.requests.length;
    const { stream, created } = await startedStream('Keep working');
    await server.llm.waitForRequests(before + 1);
    const error = await rejectionOf(
      client.responses.create({ model: 'x-terminal', previous_response_id: created.response.id, input: 'Done?' }),
    );
    expect(error).toBeInstanceOf(OpenAI.ConflictError);
    expect(error).toMatchObject({ code: 'conversation_running' });
    stream.controller.abort();
    await server.llm.waitForClientClose(before);
    expect(server.llm.requests.length).toBe(before + 1);
  });

  it('with a header naming another conversation than previous_response_id is a 400', async () => {
    server.llm.push(finishReply('first'));
    const first = await client.responses.create({ model: 'x-terminal', input: 'hi' });
    const error = await rejectionOf(
      client.responses.create(
        { model: 'x-terminal', previous_response_id: first.id, input: 'again' },
        { headers: { [CONVERSATION_HEADER]: randomUUID() } },
      ),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ param: 'previous_response_id' });
  });
});

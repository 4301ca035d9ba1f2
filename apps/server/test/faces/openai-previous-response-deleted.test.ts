// `previous_response_id` naming a response whose conversation was deleted since (REST DELETE), judged by the official
// `openai` SDK against a real server: the follow-up cannot continue what is gone, so it is a 404
// `previous_response_not_found` (the SDK's NotFoundError) and no conversation is made in its place; a new conversation
// with that id would answer the follow-up without the history the client asked to continue from.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, type TestServer } from '../helpers.js';
import { CONVERSATION_HEADER, GATEWAY_KEY, rejectionOf, startGateway } from '../support/openai-gateway.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  ({ server, client } = await startGateway());
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

/** A response in a conversation deleted since: the response and the conversation's id. */
async function responseOfDeletedConversation(): Promise<{ response: OpenAI.Responses.Response; id: string }> {
  server.llm.push(finishReply('Noted: 42.'));
  const { data: response, response: http } = await client.responses
    .create({ model: 'x-terminal', input: 'Remember the number 42' })
    .withResponse();
  const id = http.headers.get(CONVERSATION_HEADER) as string;
  const deleted = await server.call('DELETE', `/api/conversations/${id}`, undefined, {
    'X-Session-API-Key': GATEWAY_KEY,
  });
  expect(deleted.status).toBe(200);
  return { response, id };
}

describe('a follow-up on a response whose conversation was deleted', () => {
  it('is 404 previous_response_not_found, runs no model and makes no conversation in its place', async () => {
    const { response, id } = await responseOfDeletedConversation();
    const calls = server.llm.requests.length;
    const error = await rejectionOf(
      client.responses.create({ model: 'x-terminal', input: 'Which number?', previous_response_id: response.id }),
    );
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({
      status: 404,
      type: 'invalid_request_error',
      code: 'previous_response_not_found',
      param: 'previous_response_id',
    });
    expect((error as Error).message).toContain(id);
    expect(server.llm.requests.length).toBe(calls);
    expect(await server.built.manager.get(id)).toBeUndefined();
  });

  it('is refused the same when streamed, before the stream opens', async () => {
    const { response, id } = await responseOfDeletedConversation();
    const error = await rejectionOf(
      client.responses.create({
        model: 'x-terminal',
        input: 'Which number?',
        previous_response_id: response.id,
        stream: true,
      }),
    );
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ code: 'previous_response_not_found' });
    expect(await server.built.manager.get(id)).toBeUndefined();
  });
});

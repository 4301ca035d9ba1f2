// An image a model cannot be sent (javascript:, file:, a path, a data: URL that is no base64 image) is refused
// where it comes in, naming where it is, on every way a message comes in, and nothing is recorded: it used to be
// recorded and fail later at the provider as a 502.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, type TestServer } from './helpers.js';
import { collect, XAgent } from './support/ag-ui-agent.js';
import { GATEWAY_KEY, rejectionOf, startGateway } from './support/openai-gateway.js';
import { connectRecording } from './support/socket-client.js';

let server: TestServer;
let client: OpenAI;
beforeAll(async () => {
  ({ server, client } = await startGateway());
});
afterAll(async () => {
  await server.stop();
});

const auth = { 'x-session-api-key': GATEWAY_KEY };
const BAD = 'file:///etc/passwd';

async function newConversation(): Promise<string> {
  const { status, json } = await server.call('POST', '/api/conversations', createRequest(server.llm), auth);
  expect(status).toBe(201);
  return (json as { id: string }).id;
}

async function userMessages(id: string): Promise<number> {
  const { json } = await server.call(
    'GET',
    `/api/conversations/${id}/events/search?kind=MessageEvent`,
    undefined,
    auth,
  );
  return (json as { items: { source: string }[] }).items.filter((event) => event.source === 'user').length;
}

describe('an image URL no model can be sent', () => {
  it('REST: a message or an initial message is a 422 naming the URL’s place; nothing is recorded', async () => {
    const id = await newConversation();
    const sent = await server.call(
      'POST',
      `/api/conversations/${id}/events`,
      {
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', image_urls: ['https://a.example/ok.png', BAD] },
        ],
      },
      auth,
    );
    expect(sent.status).toBe(422);
    expect(sent.json).toEqual({
      detail: [expect.objectContaining({ loc: ['body', 'content', '1', 'image_urls', '1'] })],
    });
    expect((sent.json as { detail: { msg: string }[] }).detail[0]!.msg).toContain('a file: URL cannot be sent');
    expect(await userMessages(id)).toBe(0);
    const created = await server.call(
      'POST',
      '/api/conversations',
      createRequest(server.llm, { initial_message: { content: [{ type: 'image', image_urls: ['javascript:x'] }] } }),
      auth,
    );
    expect(created.status).toBe(422);
    expect(JSON.stringify(created.json)).toContain('"loc":["body","initial_message","content","0","image_urls","0"]');
  });

  it('OpenAI chat and Responses: a 400 invalid_request_error whose param is the part', async () => {
    const chat = (await rejectionOf(
      client.chat.completions.create({
        model: 'x-terminal',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: BAD } }] }],
      }),
    )) as InstanceType<typeof OpenAI.APIError>;
    expect(chat).toBeInstanceOf(OpenAI.BadRequestError);
    expect(chat.param).toBe('messages[0].content[0].image_url');
    expect(chat.message).toContain('Invalid image_url: a file: URL cannot be sent');
    const responses = (await rejectionOf(
      client.responses.create({
        model: 'x-terminal',
        input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'javascript:1', detail: 'auto' }] }],
      }),
    )) as InstanceType<typeof OpenAI.APIError>;
    expect(responses).toBeInstanceOf(OpenAI.BadRequestError);
    expect(responses.param).toBe('input[0].content[0].image_url');
  });

  it('AG-UI: RUN_ERROR unsupported_content naming the part, and the model is not called', async () => {
    const id = await newConversation();
    const requests = server.llm.requests.length;
    const agent = new XAgent(server.url, id);
    agent.headers = auth;
    agent.addMessage({
      id: 'u1',
      role: 'user',
      content: [{ type: 'image', source: { type: 'data', value: 'not base64!', mimeType: 'image/png' } }],
    } as never);
    const events = collect(agent);
    await agent.runAgent({ runId: 'r1' }).catch(() => undefined);
    expect(events.at(-1)).toMatchObject({
      type: 'RUN_ERROR',
      code: 'unsupported_content',
      message: expect.stringMatching(/^messages\[0\]\.content\[0\]: a data: URL of an image must be/),
    });
    expect(server.llm.requests.length).toBe(requests);
    expect(await userMessages(id)).toBe(0);
  });

  it('event socket: a message frame is answered with an error frame naming the URL; nothing is recorded', async () => {
    const id = await newConversation();
    const socket = connectRecording(
      `${server.url.replace('http', 'ws')}/sockets/events/${id}?session_api_key=${GATEWAY_KEY}`,
    );
    await socket.opened;
    socket.send({ role: 'user', content: [{ type: 'image', image_urls: [BAD] }] });
    await socket.waitFor((frames) => frames.some((frame) => frame.kind === 'ServerErrorEvent'));
    socket.ws.close();
    const error = socket.frames.find((frame) => frame.kind === 'ServerErrorEvent');
    expect(JSON.stringify(error)).toContain('content.0.image_urls.0: a file: URL cannot be sent');
    expect(await userMessages(id)).toBe(0);
  });
});

// What the official `openai` SDK sees of Chat Completions beyond the common path, against a real server on 127.0.0.1:
// the one choice's index and its null fields (whole, and in the chunks its stream helper assembles), the user
// message's text and image parts as the conversation records them, which system and developer texts reach the model's
// system message, and which messages around the last user message are refused (a BadRequestError naming the field)
// before any run.
import { serializeEvent } from '@x/events';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, type TestServer } from '../helpers.js';
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

const IMAGE = 'data:image/png;base64,iVBORw0KGgo=';
const SECOND_IMAGE = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

/** Answers `messages` with a scripted finish, giving the completion and the conversation it ran in. */
async function complete(
  messages: OpenAI.ChatCompletionMessageParam[],
): Promise<{ completion: OpenAI.ChatCompletion; conversationId: string }> {
  server.llm.push(finishReply('Done.'));
  const { data, response } = await client.chat.completions.create({ model: 'x-terminal', messages }).withResponse();
  return { completion: data, conversationId: response.headers.get(CONVERSATION_HEADER) ?? '' };
}

/** The content of the user messages the conversation recorded, in order. */
async function recordedUserContent(conversationId: string): Promise<unknown[]> {
  const log = (await server.built.manager.require(conversationId)).log;
  const events = (await log.range(0, log.length)).map((event) => JSON.parse(serializeEvent(event)));
  return events
    .filter((event) => event.kind === 'MessageEvent' && event.source === 'user')
    .map((event) => event.llm_message.content);
}

/** The system message's text of the model's latest request. */
function systemPromptSeen(): string {
  const messages = (server.llm.requests.at(-1)?.messages ?? []) as { role: string; content: unknown }[];
  const system = messages.find((message) => message.role === 'system')?.content;
  if (typeof system === 'string') return system;
  return ((system ?? []) as { text?: string }[]).map((part) => part.text ?? '').join('');
}

async function refusal(messages: unknown[]): Promise<unknown> {
  const before = server.llm.requests.length;
  const error = await rejectionOf(
    client.chat.completions.create({ model: 'x-terminal', messages: messages as OpenAI.ChatCompletionMessageParam[] }),
  );
  // Refused before a run: the model was never asked.
  expect(server.llm.requests.length).toBe(before);
  return error;
}

describe('the completion the SDK reads', () => {
  it('has one choice at index 0, without logprobs or a refusal', async () => {
    const { completion } = await complete([{ role: 'user', content: 'Hello' }]);
    expect(completion.choices).toEqual([
      {
        index: 0,
        finish_reason: 'stop',
        message: { role: 'assistant', content: 'Done.', refusal: null },
        logprobs: null,
      },
    ]);
  });
});

describe('the stream the SDK assembles', () => {
  it('carries every chunk of the one choice at index 0, so the final completion holds it as choices[0]', async () => {
    server.llm.push(finishReply('Assembled.'));
    // The SDK's stream helper merges each chunk into the choice its index names.
    const stream = client.chat.completions.stream({ model: 'x-terminal', messages: [{ role: 'user', content: 'hi' }] });
    const indexes: number[] = [];
    stream.on('chunk', (chunk) => indexes.push(...chunk.choices.map((choice) => choice.index)));
    const completion = await stream.finalChatCompletion();
    expect(indexes.length).toBeGreaterThan(1);
    expect(new Set(indexes)).toEqual(new Set([0]));
    expect(completion.choices).toHaveLength(1);
    expect(completion.choices[0]).toMatchObject({
      index: 0,
      finish_reason: 'stop',
      message: { role: 'assistant', content: 'Assembled.' },
    });
  });
});

describe('the OpenAPI document', () => {
  it('describes the request body as a Chat Completions request', async () => {
    const { json } = await server.call('GET', '/openapi.json');
    const body = (json as { paths: Record<string, Record<string, { requestBody?: unknown }>> }).paths[
      '/v1/chat/completions'
    ]?.post?.requestBody as { content: Record<string, { schema: { description?: string } }> };
    expect(body.content['application/json']?.schema.description).toContain('OpenAI Chat Completions request');
  });

  it('says the answer is a completion, or with stream: true an event stream ending [DONE]', async () => {
    type Answer = { content: Record<string, { schema: { description?: string } }> };
    const { json } = await server.call('GET', '/openapi.json');
    const answer = (json as { paths: Record<string, Record<string, { responses: Record<string, Answer> }>> }).paths[
      '/v1/chat/completions'
    ]?.post?.responses['200'];
    expect(answer?.content['application/json']?.schema.description).toContain(
      'with `stream: true`, text/event-stream of `chat.completion.chunk` frames ending `data: [DONE]`',
    );
  });
});

describe("the user message's parts, as the conversation records them", () => {
  it('keeps text and images (by URL, in either form) in order, none marked for prompt caching', async () => {
    const { conversationId } = await complete([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look:' },
          { type: 'text', text: '' },
          { type: 'image_url', image_url: { url: IMAGE } },
          // The bare string some clients send for image_url.
          { type: 'image_url', image_url: SECOND_IMAGE } as unknown as OpenAI.ChatCompletionContentPartImage,
        ],
      },
    ]);
    expect(await recordedUserContent(conversationId)).toEqual([
      [
        { type: 'text', text: 'Look:', cache_prompt: false },
        { type: 'image', image_urls: [IMAGE], cache_prompt: false },
        { type: 'image', image_urls: [SECOND_IMAGE], cache_prompt: false },
      ],
    ]);
  });

  it('records a string message as one text part', async () => {
    const { conversationId } = await complete([{ role: 'user', content: 'Plain text' }]);
    expect(await recordedUserContent(conversationId)).toEqual([
      [{ type: 'text', text: 'Plain text', cache_prompt: false }],
    ]);
  });

  it.each<[string, unknown]>([
    ['an empty url', { url: '' }],
    ['no image_url at all', undefined],
  ])('refuses an image part with %s, naming it', async (_name, imageUrl) => {
    const error = await refusal([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look:' },
          { type: 'image_url', image_url: imageUrl },
        ],
      },
    ]);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'messages[0].content[1].image_url' });
    expect((error as Error).message).toContain('An image_url content part has no url');
  });

  it.each(['system', 'developer'] as const)(
    'refuses an image in a %s message, which could not reach the system text, before any run',
    async (role) => {
      const error = await refusal([
        {
          role,
          content: [
            { type: 'text', text: 'Match this style:' },
            { type: 'image_url', image_url: { url: IMAGE } },
          ],
        },
        { role: 'user', content: 'Draw' },
      ]);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error).toMatchObject({ param: 'messages[0].content[1].type', code: 'unsupported_value' });
    },
  );

  it.each<[string, unknown]>([
    ['empty text', ''],
    ['null', null],
    ['only empty text parts', [{ type: 'text', text: '' }]],
  ])('refuses a last user message of %s as having no content', async (_name, content) => {
    const error = await refusal([
      { role: 'user', content: 'An earlier question' },
      { role: 'user', content },
    ]);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'messages[1].content' });
  });

  it('refuses an empty model name as a malformed body, not as a model it lacks', async () => {
    const error = await rejectionOf(
      client.chat.completions.create({ model: '', messages: [{ role: 'user', content: 'Hi' }] }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'model' });
  });

  it('refuses a content part with an empty type as a malformed body, even in a message the agent does not read', async () => {
    const error = await refusal([
      { role: 'assistant', content: [{ type: '', text: 'An earlier answer' }] },
      { role: 'user', content: 'Go on' },
    ]);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'messages[0].content[0].type' });
  });
});

describe('system and developer texts', () => {
  it("join the model's system message, parts by lines and messages by blank lines, blank ones left out", async () => {
    await complete([
      {
        role: 'system',
        content: [
          { type: 'text', text: 'Rule one.' },
          { type: 'text', text: 'Rule two.' },
        ],
      },
      { role: 'user', content: 'An earlier question, never a rule' },
      { role: 'system', content: '   ' },
      { role: 'developer', content: 'Developer rule.' },
      { role: 'user', content: 'Go' },
      // A system message after the last user message is still a rule, not a turn to refuse.
      { role: 'system', content: 'Late rule.' },
    ]);
    const system = systemPromptSeen();
    expect(system).toContain('Rule one.\nRule two.\n\nDeveloper rule.\n\nLate rule.');
    expect(system).not.toContain('earlier question');
  });
});

describe('what follows the last user message', () => {
  it.each<[string, OpenAI.ChatCompletionMessageParam]>([
    ['an assistant message', { role: 'assistant', content: 'Half an answer' }],
    ['a tool result', { role: 'tool', tool_call_id: 'call_1', content: 'sunny' }],
  ])('refuses %s, naming it', async (_name, trailing) => {
    const error = await refusal([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather?' },
      trailing,
    ]);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'messages[2].role', code: 'unsupported_value' });
  });
});

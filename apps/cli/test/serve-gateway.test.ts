// `x serve` as an OpenAI-compatible endpoint: the official `openai` SDK against a real `x serve` process on
// 127.0.0.1, its model read from X_SERVER_OPENAI_MODELS (an offline-scripted agent: --testing), whole and streamed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Background, startBackground } from './helpers/background.js';
import { tempDir } from './helpers/run-cli.js';

const home = tempDir();
const workspace = tempDir();
const KEY = 'serve-gateway-key';
let server: Background;
let client: OpenAI;

beforeAll(async () => {
  const models = join(home.path, 'models.json');
  writeFileSync(
    models,
    JSON.stringify({
      'x-offline': {
        agent: {
          llm: { model: 'offline' },
          tools: [],
          x_offline_script: [{ toolCalls: [{ name: 'finish', arguments: { message: 'Hello from x serve.' } }] }],
        },
      },
    }),
  );
  server = startBackground(
    [
      'serve',
      '--testing',
      '--port',
      '0',
      '--api-key',
      KEY,
      '--data-dir',
      `${home.path}/server`,
      '--workspace-root',
      workspace.path,
    ],
    { X_HOME: home.path, X_SERVER_OPENAI_MODELS: models },
  );
  const url = (await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/, undefined, 'stderr'))[1] ?? '';
  client = new OpenAI({ apiKey: KEY, baseURL: `${url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await server.interrupt();
  home.remove();
  workspace.remove();
});

describe('x serve with X_SERVER_OPENAI_MODELS', () => {
  it('lists the model and answers a chat completion, whole and streamed', async () => {
    expect((await client.models.list()).data.map((model) => model.id)).toEqual(['x-offline']);
    const completion = await client.chat.completions.create({
      model: 'x-offline',
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Hello from x serve.');
    const stream = await client.chat.completions.create({
      model: 'x-offline',
      messages: [{ role: 'user', content: 'Say hello again' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Hello from x serve.');
  });

  it('answers a malformed body with an OpenAI error', async () => {
    const error = await client.chat.completions
      .create({ model: 'x-offline', messages: [] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).type).toBe('invalid_request_error');
  });
});

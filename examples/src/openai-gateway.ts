// Any OpenAI client talks to an x agent as if it were a model: the server's OpenAI-compatible gateway (`/v1`)
// lists the configured agents as models and answers chat completions with the agent's final response, whole or
// streamed. The official `openai` SDK, with the server's session key as its API key.
//
//   OPENAI_API_KEY=sk-... node dist/openai-gateway.js     (OPENAI_BASE_URL for another endpoint)
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer, resolveServerConfig } from '@x/server';
import OpenAI from 'openai';

if (!process.env.OPENAI_API_KEY) throw new Error('No model configured: set OPENAI_API_KEY (and OPENAI_BASE_URL)');

const apiKey = randomBytes(16).toString('hex');
const server = await buildServer(
  resolveServerConfig(process.env, {
    port: 0,
    dataDir: await mkdtemp(join(tmpdir(), 'x-openai-gateway-example-')),
    apiKeys: [apiKey],
    logLevel: 'silent',
    // The gateway's one model: an agent with a terminal (what `X_SERVER_OPENAI_MODELS` names for `x serve`).
    openaiModels: {
      'x-terminal': {
        agent: {
          llm: { model: process.env.X_MODEL ?? 'gpt-4o-mini', base_url: process.env.OPENAI_BASE_URL ?? null },
          tools: [{ name: 'TerminalTool' }],
        },
      },
    },
  }),
);
const { url } = await server.listen();

//#region client
const client = new OpenAI({ apiKey, baseURL: `${url}/v1` });
console.log('models:', (await client.models.list()).data.map((model) => model.id).join(' '));

const { data, response } = await client.chat.completions
  .create({
    model: 'x-terminal',
    messages: [
      { role: 'system', content: 'Answer in one line.' },
      { role: 'user', content: 'Print the date with the terminal, then tell me what it printed.' },
    ],
  })
  .withResponse();
console.log('answer:', data.choices[0]?.message.content);
// The conversation behind the completion: sending it back continues that conversation.
const conversationId = response.headers.get('X-OpenHands-ServerConversation-ID') ?? '';
console.log('conversation:', conversationId);

const stream = await client.chat.completions.create(
  { model: 'x-terminal', messages: [{ role: 'user', content: 'And what did you run?' }], stream: true },
  { headers: { 'X-OpenHands-ServerConversation-ID': conversationId } },
);
let streamed = '';
for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
console.log('streamed:', streamed);
//#endregion client

await server.close();

// @x/agent supports openai ^6.49.0 || ^7.0.0. 7.x declares Node >= 22 (its only breaking change) and 6.49.0 none, so
// npm installs 7.x on Node 22 and 6.49.0 on Node 20. The repository's own tests run 6.49.0 (its devDependency:
// `pnpm install` is engine-strict and these machines run Node 20), so here the packed @x/agent is installed by npm
// on Node 20 and on Node 22, and both OpenAI providers run against @x/agent/testing's servers on each, with the
// failures whose mapping reads the SDK's error classes (by name) and shape.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sh } from './support/consumer-project.js';
import { installedMajor, installOnNodeLine, packAgent } from './support/sdk-majors.js';

let packed: { work: string; tarballs: Record<string, string> };

beforeAll(() => {
  packed = packAgent('x-openai-majors-');
}, 600_000);

afterAll(() => {
  if (packed !== undefined) rmSync(packed.work, { recursive: true, force: true, maxRetries: 5 });
}, 300_000);

/**
 * Chat Completions: a tool call, then its result sent back and a streamed answer; then an abort, a 401 and a 429.
 * Responses: a reasoning model's tool call, then a streamed answer carrying its reasoning item back.
 */
const exchange = `
import { createLLM } from '@x/agent';
import { startResponsesServer, startScriptedLLMServer } from '@x/agent/testing';
const tools = [{ type: 'function', function: { name: 'read_file', description: 'Reads a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } }];
const question = { role: 'user', content: 'What does a.txt say?' };

async function converse(llm) {
  const first = await llm.complete({ messages: [question], tools });
  const call = first.message.tool_calls[0];
  const streamed = [];
  const second = await llm.complete({
    messages: [question, first.message, { role: 'tool', tool_call_id: call.id, name: call.name, content: 'hello' }],
    tools,
    onDelta: (delta) => streamed.push(delta.content ?? ''),
  });
  return {
    call: { name: call.name, arguments: JSON.parse(call.arguments) },
    reasoning: first.message.reasoning_content ?? null,
    answer: second.message.content.map((part) => part.text).join(''),
    streamed: streamed.join(''),
  };
}

async function failure(promise) {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    return error.code;
  }
}

const chatServer = await startScriptedLLMServer([
  { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
  { content: 'It says hello.' },
  { hang: true },
  { error: { status: 401, message: 'Incorrect API key provided.', code: 'invalid_api_key' } },
  { error: { status: 429, message: 'Slow down.' } },
]);
const responsesServer = await startResponsesServer([
  { thinking: 'The file will say.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
  { text: 'It says hello.' },
]);
try {
  const chat = createLLM({ provider: 'openai', model: 'gpt-4o', baseURL: chatServer.baseURL, apiKey: 'k', maxRetries: 0 });
  const chatExchange = await converse(chat);
  const aborting = new AbortController();
  const aborted = failure(chat.complete({ messages: [question], signal: aborting.signal }));
  await chatServer.waitForRequests(3);
  aborting.abort();
  const errors = [
    await aborted,
    await failure(chat.complete({ messages: [question] })),
    await failure(chat.complete({ messages: [question] })),
  ];
  const responses = createLLM({ provider: 'openai-responses', model: 'o4-mini', baseURL: responsesServer.baseURL,
    apiKey: 'k', maxRetries: 0 });
  console.log(JSON.stringify({
    chat: chatExchange,
    errors,
    responses: await converse(responses),
    responsesRequests: responsesServer.requests.map((request) => ({ path: request.path, violations: request.violations })),
  }));
} finally {
  await chatServer.close();
  await responsesServer.close();
}
`;

describe.each([
  { line: '20', major: '6' },
  { line: '22', major: '7' },
])('openai installed by npm on Node $line', ({ line, major }) => {
  let dir: string;
  let node: string;
  beforeAll(() => {
    ({ dir, node } = installOnNodeLine({ ...packed, line, sdk: 'openai', script: exchange }));
  }, 600_000);

  it(`is the newest major that Node ${line} runs (${major}.x)`, () => {
    expect(installedMajor(dir, 'openai')).toBe(major);
  });

  it('carries tool calls and streamed answers over Chat Completions and Responses, and maps the failures', () => {
    const result = JSON.parse(sh(node, ['exchange.mjs'], dir).trim());
    const exchanged = { call: { name: 'read_file', arguments: { path: 'a.txt' } }, answer: 'It says hello.' };
    expect(result).toEqual({
      chat: { ...exchanged, reasoning: null, streamed: 'It says hello.' },
      errors: ['llm_aborted', 'llm_authentication', 'llm_rate_limit'],
      responses: { ...exchanged, reasoning: 'The file will say.', streamed: 'It says hello.' },
      responsesRequests: [
        { path: '/v1/responses', violations: [] },
        { path: '/v1/responses', violations: [] },
      ],
    });
  }, 300_000);
});

// @x/agent supports openai ^6.49.0 || ^7.0.0. 7.x declares Node >= 22 (its only breaking change) and 6.49.0 none, so
// npm installs 7.x on Node 22 and 6.49.0 on Node 20. The repository's own tests run 6.49.0 (its devDependency:
// `pnpm install` is engine-strict and these machines run Node 20), so here the packed @x/agent is installed by npm
// on Node 20 and on Node 22, and both OpenAI providers run against @x/agent/testing's servers on each, with the
// failures whose mapping reads the SDK's error classes (by name) and shape.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureNode } from '../node-lines.mjs';
import { root, sh } from './support/consumer-project.js';

const npmCli = join(spawnSync('npm', ['root', '-g'], { encoding: 'utf8' }).stdout.trim(), 'npm', 'bin', 'npm-cli.js');
const agentManifest = JSON.parse(readFileSync(join(root, 'packages/agent/package.json'), 'utf8')) as {
  peerDependencies: Record<string, string>;
};
const openaiRange = agentManifest.peerDependencies.openai as string;

let work: string;
const tarballs: Record<string, string> = {};

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'x-openai-majors-'));
  const packs = join(work, 'packs');
  mkdirSync(packs);
  for (const [name, dir] of [
    ['@x/events', 'packages/events'],
    ['@x/store', 'packages/store'],
    ['@x/agent', 'packages/agent'],
  ] as const) {
    const before = new Set(readdirSync(packs));
    sh('pnpm', ['pack', '--pack-destination', packs], join(root, dir));
    const file = readdirSync(packs).find((entry) => !before.has(entry));
    if (file === undefined) throw new Error(`pnpm pack wrote no tarball for ${name}`);
    tarballs[name] = `file:${join(packs, file)}`;
  }
}, 600_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true, maxRetries: 5 });
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
    node = line === process.versions.node.split('.')[0] ? process.execPath : ensureNode(line);
    dir = join(work, `node-${line}`);
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: `openai-node-${line}`,
        private: true,
        type: 'module',
        dependencies: { ...tarballs, zod: '^4', openai: openaiRange },
      }),
    );
    sh(node, [npmCli, 'install', '--engine-strict', '--no-audit', '--no-fund'], dir);
    writeFileSync(join(dir, 'exchange.mjs'), exchange);
  }, 600_000);

  it(`is the newest major that Node ${line} runs (${major}.x)`, () => {
    const { version } = JSON.parse(readFileSync(join(dir, 'node_modules/openai/package.json'), 'utf8'));
    expect(version.split('.')[0]).toBe(major);
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

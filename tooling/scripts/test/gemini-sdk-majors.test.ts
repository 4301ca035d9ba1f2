// @x/agent supports @google/genai ^2.32.0 || ^3.0.0. 3.x declares Node >= 22 and 2.32.0 Node >= 20, and npm
// installs the newest release in range whose engines the installing Node meets, so what a user gets depends on
// their Node. The repository's own tests run 2.x (its devDependency: `pnpm install` is engine-strict and these
// machines run Node 20), so here the packed @x/agent is installed by npm on Node 20 and on Node 22, and the gemini
// provider runs a tool-calling, thinking, streaming exchange against @x/agent/testing's Gemini server on each.
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
const genaiRange = agentManifest.peerDependencies['@google/genai'] as string;

let work: string;
const tarballs: Record<string, string> = {};

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'x-gemini-majors-'));
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

/** One tool call with a thought signature (non-streaming), then its result sent back and a streamed answer. */
const exchange = `
import { createGeminiLLM } from '@x/agent';
import { startGeminiServer } from '@x/agent/testing';
const server = await startGeminiServer([
  { thinking: 'The file will say.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
  { text: 'It says hello.' },
]);
try {
  const llm = createGeminiLLM({ model: 'gemini/gemini-2.5-flash', baseURL: server.baseURL, apiKey: 'k',
    thinking: { includeThoughts: true }, maxRetries: 0 });
  const tools = [{ type: 'function', function: { name: 'read_file', description: 'Reads a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } }];
  const question = { role: 'user', content: 'What does a.txt say?' };
  const first = await llm.complete({ messages: [question], tools });
  const call = first.message.tool_calls[0];
  const streamed = [];
  const second = await llm.complete({
    messages: [question, first.message, { role: 'tool', tool_call_id: call.id, name: call.name, content: 'hello' }],
    tools,
    onDelta: (delta) => streamed.push(delta.content ?? ''),
  });
  console.log(JSON.stringify({
    call: { name: call.name, arguments: JSON.parse(call.arguments), signed: call.id.includes('__thought__') },
    reasoning: first.message.reasoning_content,
    answer: second.message.content.map((part) => part.text).join(''),
    streamed: streamed.join(''),
    requests: server.requests.map((request) => ({ path: request.path, violations: request.violations })),
  }));
} finally {
  await server.close();
}
`;

describe.each([
  { line: '20', major: '2' },
  { line: '22', major: '3' },
])('@google/genai installed by npm on Node $line', ({ line, major }) => {
  let dir: string;
  let node: string;
  beforeAll(() => {
    node = line === process.versions.node.split('.')[0] ? process.execPath : ensureNode(line);
    dir = join(work, `node-${line}`);
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: `gemini-node-${line}`,
        private: true,
        type: 'module',
        dependencies: { ...tarballs, zod: '^4', '@google/genai': genaiRange },
      }),
    );
    sh(node, [npmCli, 'install', '--engine-strict', '--no-audit', '--no-fund'], dir);
    writeFileSync(join(dir, 'exchange.mjs'), exchange);
  }, 600_000);

  it(`is the newest major that Node ${line} runs (${major}.x)`, () => {
    const { version } = JSON.parse(readFileSync(join(dir, 'node_modules/@google/genai/package.json'), 'utf8'));
    expect(version.split('.')[0]).toBe(major);
  });

  it('carries a tool call, its thought signature and a streamed answer over the v1beta API', () => {
    const result = JSON.parse(sh(node, ['exchange.mjs'], dir).trim());
    expect(result).toEqual({
      call: { name: 'read_file', arguments: { path: 'a.txt' }, signed: true },
      reasoning: 'The file will say.',
      answer: 'It says hello.',
      streamed: 'It says hello.',
      requests: [
        { path: '/v1beta/models/gemini-2.5-flash:generateContent', violations: [] },
        { path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent', violations: [] },
      ],
    });
  }, 300_000);
});

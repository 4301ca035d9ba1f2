// @x/agent supports @google/genai ^2.32.0 || ^3.0.0. 3.x declares Node >= 22 and 2.32.0 Node >= 20, and npm
// installs the newest release in range whose engines the installing Node meets, so what a user gets depends on
// their Node. The repository's own tests run 2.x (its devDependency: `pnpm install` is engine-strict and these
// machines run Node 20), so here the packed @x/agent is installed by npm on Node 20 and on Node 22, and the gemini
// provider runs a tool-calling, thinking, streaming exchange against @x/agent/testing's Gemini server on each.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sh } from './support/consumer-project.js';
import { installedMajor, installOnNodeLine, packAgent } from './support/sdk-majors.js';

let packed: { work: string; tarballs: Record<string, string> };

beforeAll(() => {
  packed = packAgent('x-gemini-majors-');
}, 600_000);

afterAll(() => {
  if (packed !== undefined) rmSync(packed.work, { recursive: true, force: true, maxRetries: 5 });
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
    ({ dir, node } = installOnNodeLine({ ...packed, line, sdk: '@google/genai', script: exchange }));
  }, 600_000);

  it(`is the newest major that Node ${line} runs (${major}.x)`, () => {
    expect(installedMajor(dir, '@google/genai')).toBe(major);
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

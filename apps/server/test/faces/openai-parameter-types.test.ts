// A parameter the gateway reads but given with the wrong type is refused by the request schema, on both faces, as
// OpenAI refuses it: a 400 `invalid_request_error` naming the field in `param` and the type expected in the message,
// before any run starts. The official SDK's types forbid these bodies, so they are sent as JSON by hand: a client
// without types (or a hand-written one) sends them, and they must neither start a run nor pass a refusal by accident.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, type TestServer } from '../helpers.js';
import { GATEWAY_KEY, startGateway } from '../support/openai-gateway.js';

let server: TestServer;

beforeAll(async () => {
  ({ server } = await startGateway());
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

type ErrorBody = { error: { type: string; param: string | null; message: string; code: string | null } };

/** Posts `body` to `path` and expects a 400 naming `param` and, in its message, `expected`; no model call made. */
async function expectTypeRefusal(path: string, body: Record<string, unknown>, param: string, expected: RegExp) {
  const before = server.llm.requests.length;
  const { status, json } = await server.call('POST', path, body, { Authorization: `Bearer ${GATEWAY_KEY}` });
  expect(status).toBe(400);
  const { error } = json as ErrorBody;
  expect(error).toMatchObject({ type: 'invalid_request_error', param });
  expect(error.message).toMatch(expected);
  expect(error.message).toContain(param);
  expect(server.llm.requests.length).toBe(before);
}

const chat = { model: 'x-terminal', messages: [{ role: 'user', content: 'hi' }] };

describe('a Chat Completions parameter of the wrong type', () => {
  it.each<[string, Record<string, unknown>, string, RegExp]>([
    ['n as a string', { n: '2' }, 'n', /expected number, received string/],
    ['n of 0', { n: 0 }, 'n', /expected number to be >=1/],
    ['n not whole', { n: 1.5 }, 'n', /expected int/],
    ['too many choices', { n: 129 }, 'n', /expected number to be <=128/],
    ['response_format as a string', { response_format: 'json' }, 'response_format', /expected object/],
    ['response_format.type as a number', { response_format: { type: 5 } }, 'response_format.type', /expected string/],
    ['tool_choice as a number', { tool_choice: 7 }, 'tool_choice', /'none', 'auto', 'required' or an object/],
    ['tool_choice as an unknown mode', { tool_choice: 'any' }, 'tool_choice', /'none', 'auto', 'required'/],
    ['function_call as a number', { function_call: 1 }, 'function_call', /'none', 'auto' or an object/],
    ['tools as an object', { tools: { type: 'function' } }, 'tools', /expected array/],
    ['functions without a name', { functions: [{ parameters: {} }] }, 'functions[0].name', /expected string/],
    ['logprobs as a string', { logprobs: 'yes' }, 'logprobs', /expected boolean/],
    ['top_logprobs as a string', { top_logprobs: '3' }, 'top_logprobs', /expected number/],
    ['stream as a string', { stream: 'true' }, 'stream', /expected boolean/],
    ['modalities as a string', { modalities: 'text' }, 'modalities', /expected array/],
    ['an unknown modality', { modalities: ['text', 'video'] }, 'modalities[1]', /"text"\|"audio"/],
    ['audio as a string', { audio: 'alloy' }, 'audio', /expected object/],
    ['max_tokens as a string', { max_tokens: '100' }, 'max_tokens', /expected number/],
    ['max_completion_tokens of 0', { max_completion_tokens: 0 }, 'max_completion_tokens', />=1/],
    ['stop as a number', { stop: 5 }, 'stop', /a non-empty string or an array of at most 4/],
    ['five stop sequences', { stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop', /at most 4/],
    ['an empty stop sequence', { stop: '' }, 'stop', /expected string to have >=1 characters/],
    // An empty sequence would be found at 0 and cut the whole answer away.
    ['an empty sequence in a stop list', { stop: ['END', ''] }, 'stop[1]', />=1 characters/],
    ['store as a string', { store: 'true' }, 'store', /expected boolean/],
    ['a metadata value not a string', { metadata: { k: 1 } }, 'metadata.k', /expected string/],
    ['web_search_options as a boolean', { web_search_options: true }, 'web_search_options', /expected object/],
    ['a logit bias past 100', { logit_bias: { '50256': 101 } }, 'logit_bias[50256]', /<=100/],
  ])('%s is a 400 naming it and the type expected', async (_name, extra, param, expected) => {
    await expectTypeRefusal('/v1/chat/completions', { ...chat, ...extra }, param, expected);
  });
});

describe('a Responses parameter of the wrong type', () => {
  it.each<[string, Record<string, unknown>, string, RegExp]>([
    ['tools as a string', { tools: 'web_search' }, 'tools', /expected array/],
    ['a tool without a type', { tools: [{ name: 'get_weather' }] }, 'tools[0].type', /expected string/],
    ['tool_choice as a number', { tool_choice: 7 }, 'tool_choice', /'none', 'auto', 'required' or an object/],
    ['background as a string', { background: 'true' }, 'background', /expected boolean/],
    ['text as a string', { text: 'json' }, 'text', /expected object/],
    ['text.format as a number', { text: { format: 5 } }, 'text.format', /expected object/],
    ['top_logprobs not whole', { top_logprobs: 2.5 }, 'top_logprobs', /expected int/],
    ['include as a string', { include: 'message.output_text.logprobs' }, 'include', /expected array/],
    ['max_output_tokens as a string', { max_output_tokens: '100' }, 'max_output_tokens', /expected number/],
    ['conversation as a number', { conversation: 5 }, 'conversation', /conversation id/],
    ['prompt as a string', { prompt: 'pmpt_123' }, 'prompt', /expected object/],
    ['max_tool_calls as a string', { max_tool_calls: '2' }, 'max_tool_calls', /expected number/],
    ['an unknown reasoning summary', { reasoning: { summary: 'brief' } }, 'reasoning.summary', /"auto"\|"concise"/],
    ['parallel_tool_calls as a string', { parallel_tool_calls: 'false' }, 'parallel_tool_calls', /expected boolean/],
  ])('%s is a 400 naming it and the type expected', async (_name, extra, param, expected) => {
    await expectTypeRefusal('/v1/responses', { model: 'x-terminal', input: 'hi', ...extra }, param, expected);
  });
});

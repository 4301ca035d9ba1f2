import type { Message } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { startGeminiServer, type WireServer } from '../../testing/wire/index.js';
import { createGeminiLLM } from './gemini-llm.js';

/** What `@google/genai` puts on the wire for our messages (the body the local server received). */

let server: WireServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const text = (value: string) => ({ cache_prompt: false, type: 'text' as const, text: value });
const image = (...urls: string[]) => ({ cache_prompt: false, type: 'image' as const, image_urls: urls });

async function sent(messages: Message[], options: { vision?: boolean } = {}) {
  // A test may send several requests; each gets a fresh server, and the last one is closed after it.
  await server?.close();
  server = await startGeminiServer([{ text: 'ok' }]);
  const llm = createGeminiLLM({
    model: 'gemini/gemini-2.5-flash',
    baseURL: server.baseURL,
    apiKey: 'gm-test',
    maxRetries: 0,
    ...options,
  });
  await llm.complete({ messages });
  const request = server.requests[0];
  expect(request?.violations).toEqual([]);
  return request?.body as { contents: unknown[]; systemInstruction?: unknown };
}

/** A call x made up an id for (Gemini gave none), signed, answered by a result holding a screenshot. */
const toolTurn: Message[] = [
  { role: 'user', content: [text('Take a screenshot.')], thinking_blocks: [] },
  {
    role: 'assistant',
    content: [],
    thinking_blocks: [],
    tool_calls: [{ id: 'gcall_r_0__thought__U0lH', name: 'screenshot', arguments: '{}', origin: 'completion' }],
  },
  {
    role: 'tool',
    tool_call_id: 'gcall_r_0__thought__U0lH',
    name: 'screenshot',
    content: [text('Captured.'), text('1 image.'), image('data:image/jpeg;base64,/9j/')],
    thinking_blocks: [],
  },
];

describe('Gemini request contents', () => {
  it('sends user images inline or by URL, and none when vision is off', async () => {
    const look: Message = {
      role: 'user',
      content: [text('Compare'), image('data:image/png;base64,iVBO', 'https://example.test/b.png')],
      thinking_blocks: [],
    };
    expect((await sent([look])).contents).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'Compare' },
          { inlineData: { mimeType: 'image/png', data: 'iVBO' } },
          { fileData: { fileUri: 'https://example.test/b.png' } },
        ],
      },
    ]);
    expect((await sent([look], { vision: false })).contents).toEqual([{ role: 'user', parts: [{ text: 'Compare' }] }]);
  });

  it("sends a tool result's texts as its output and its images after the functionResponse", async () => {
    const body = await sent(toolTurn);
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Take a screenshot.' }] },
      { role: 'model', parts: [{ functionCall: { name: 'screenshot', args: {} }, thoughtSignature: 'U0lH' }] },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'screenshot', response: { output: 'Captured.\n1 image.' } } },
          { inlineData: { mimeType: 'image/jpeg', data: '/9j/' } },
        ],
      },
    ]);
  });

  it('merges a user message that follows tool results into their turn, and sends no systemInstruction without a system text', async () => {
    const body = await sent([
      { role: 'system', content: [text('')], thinking_blocks: [] },
      ...toolTurn,
      { role: 'user', content: [text('Now describe it.')], thinking_blocks: [] },
    ]);
    expect(body).not.toHaveProperty('systemInstruction');
    expect(body.contents).toHaveLength(3);
    expect(body.contents[2]).toMatchObject({
      role: 'user',
      parts: [{ functionResponse: { name: 'screenshot' } }, { inlineData: {} }, { text: 'Now describe it.' }],
    });
  });

  it('sends no empty text part and no empty turn (Gemini rejects both)', async () => {
    const body = await sent([
      { role: 'user', content: [text('Start.'), text('')], thinking_blocks: [] },
      { role: 'assistant', content: [text('')], thinking_blocks: [] },
      { role: 'user', content: [text('Go on.')], thinking_blocks: [] },
      {
        role: 'assistant',
        content: [text('')],
        thinking_blocks: [],
        tool_calls: [{ id: 'call_1', name: 'finish', arguments: '{"message":"done"}', origin: 'completion' }],
      },
      { role: 'tool', tool_call_id: 'call_1', name: 'finish', content: [text('done')], thinking_blocks: [] },
    ]);
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Start.' }, { text: 'Go on.' }] },
      { role: 'model', parts: [{ functionCall: { id: 'call_1', name: 'finish', args: { message: 'done' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'call_1', name: 'finish', response: { output: 'done' } } }] },
    ]);
  });

  it('sends every system text in systemInstruction, in order', async () => {
    const body = await sent([
      { role: 'system', content: [text('Be brief.'), text('Use metric units.')], thinking_blocks: [] },
      { role: 'user', content: [text('How tall is it?')], thinking_blocks: [] },
    ]);
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }, { text: 'Use metric units.' }] });
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'How tall is it?' }] }]);
  });
});

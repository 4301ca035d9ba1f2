// A tool result with images (the reference sends them so with vision on, §2.3): imported as an observation whose
// content keeps them as ImageContent, which the reference's Observation allows, and rendered back the same.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventsToMessages } from '../convert/events-to-messages.js';
import { ChatImportError } from '../errors/chat-import-error.js';
import { eventToJson } from '../json/serialize-event.js';
import { type FieldSets, fieldSetProblems } from '../testing/index.js';
import { fromChatCompletionsMessages } from './from-chat-completions-messages.js';
import type { ChatCompletionMessageParam } from './openai-wire-types.js';
import { toChatCompletionsMessages } from './to-chat-completions-messages.js';

const sets: FieldSets = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'test', '__fixtures__', 'reference-field-sets.json'), 'utf8'),
);

const dataUrl = 'data:image/png;base64,iVBORw0KGgo=';
const httpsUrl = 'https://example.com/chart.png';

const history = (content: Extract<ChatCompletionMessageParam, { role: 'tool' }>['content']) =>
  [
    { role: 'user', content: 'Plot it' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'plot', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content },
  ] satisfies ChatCompletionMessageParam[];

describe('fromChatCompletionsMessages, a tool result with images', () => {
  it('keeps its text and its images (data: and https URLs) in order in the observation', () => {
    const events = fromChatCompletionsMessages(
      history([
        { type: 'text', text: 'Here is the chart.' },
        { type: 'image_url', image_url: { url: dataUrl } },
        { type: 'image_url', image_url: { url: httpsUrl, detail: 'high' } },
      ]),
    );
    const observation = events[2];
    if (observation?.kind !== 'ObservationEvent') throw new Error(`expected an observation, got ${observation?.kind}`);
    expect(observation.observation).toEqual({
      kind: 'ImportedObservation',
      content: [
        { cache_prompt: false, type: 'text', text: 'Here is the chart.' },
        { cache_prompt: false, type: 'image', image_urls: [dataUrl] },
        { cache_prompt: false, type: 'image', image_urls: [httpsUrl] },
      ],
      is_error: false,
    });
    // The event has only the reference's fields, and its observation only an Observation's (content and is_error,
    // each part a TextContent or ImageContent): read as a reference kind, it conforms.
    const json = eventToJson(observation) as Record<string, unknown>;
    const asReferenceKind = { ...json, observation: { ...observation.observation, kind: 'FinishObservation' } };
    expect(fieldSetProblems(sets, asReferenceKind)).toEqual([]);
  });

  it('renders back as the same parts with vision on, and as its text alone without', () => {
    const chat = history([
      { type: 'text', text: 'Here is the chart.' },
      { type: 'image_url', image_url: { url: dataUrl } },
    ]);
    const messages = eventsToMessages(fromChatCompletionsMessages(chat));
    expect(toChatCompletionsMessages(messages, { visionEnabled: true }).at(-1)).toEqual({
      role: 'tool',
      content: [
        { type: 'text', text: 'Here is the chart.' },
        { type: 'image_url', image_url: { url: dataUrl } },
      ],
      tool_call_id: 'call_1',
      name: 'plot',
    });
    expect(toChatCompletionsMessages(messages, { forceStringSerializer: true }).at(-1)).toMatchObject({
      content: 'Here is the chart.',
    });
  });

  it('takes a result that is only an image', () => {
    const [, , observation] = fromChatCompletionsMessages(
      history([{ type: 'image_url', image_url: { url: httpsUrl } }]),
    );
    expect(observation).toMatchObject({
      observation: { content: [{ cache_prompt: false, type: 'image', image_urls: [httpsUrl] }] },
    });
  });

  it('refuses an image part without a URL, and parts of other types, naming the message and part', () => {
    const noUrl = JSON.parse('[{"type":"text","text":"x"},{"type":"image_url","image_url":{}}]');
    expect(() => fromChatCompletionsMessages(history(noUrl))).toThrow(ChatImportError);
    expect(() => fromChatCompletionsMessages(history(noUrl))).toThrow(
      /message 2 \(content\[1\]\.image_url\.url\).*must carry a URL/,
    );
    const missing = JSON.parse('[{"type":"image_url"}]');
    expect(() => fromChatCompletionsMessages(history(missing))).toThrow(/content\[0\]\.image_url\.url/);
    const audio = JSON.parse('[{"type":"input_audio","input_audio":{"data":"AA","format":"wav"}}]');
    expect(() => fromChatCompletionsMessages(history(audio))).toThrow(/message 2 \(content\[0\]\.type\)/);
  });

  it('refuses a user image part without a URL as an import error too, not a TypeError', () => {
    const user = JSON.parse('{"role":"user","content":[{"type":"image_url"}]}');
    expect(() => fromChatCompletionsMessages([user])).toThrow(ChatImportError);
  });
});

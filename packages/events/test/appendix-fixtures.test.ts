import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyConversationError, parseEvent, parseEventJson, serializeEvent } from '../src/index.js';

const dir = join(import.meta.dirname, '__fixtures__', 'appendix');
const files = readdirSync(dir)
  .filter((file) => file.endsWith('.json'))
  .sort();

describe('reference appendix (§12) examples', () => {
  it('has every example', () => {
    expect(files).toHaveLength(12);
  });

  for (const file of files) {
    it(`${file}: JSON in → parse → serialize gives the same JSON text`, () => {
      const text = readFileSync(join(dir, file), 'utf8').trim();
      const event = parseEventJson(text);
      expect(event.kind).not.toBe('OpaqueEvent');
      expect(serializeEvent(event)).toBe(text);
    });
  }

  it('keeps nulls inside a free-form state value', () => {
    const event = parseEventJson(readFileSync(join(dir, '10-state-update-full.json'), 'utf8'));
    expect(event.kind === 'ConversationStateUpdateEvent' && (event.value as { title: unknown }).title).toBeNull();
  });

  it('fills a missing ConversationErrorEvent classification the way the reference does (§8.9)', () => {
    const json = JSON.parse(readFileSync(join(dir, '11-conversation-error.json'), 'utf8'));
    const { classification, ...withoutClassification } = json;
    const event = parseEvent(withoutClassification);
    expect(event.kind === 'ConversationErrorEvent' && event.classification).toEqual(classification);
    expect(classifyConversationError(json.code, json.detail)).toEqual(classification);
    expect(serializeEvent(event)).toBe(JSON.stringify(json));
  });
});

describe('unknown fields (§1.3 decision)', () => {
  const base = { id: 'e1', timestamp: '2026-08-22T16:34:54.123456', source: 'user' };

  it('keeps unknown top-level fields of a known kind, before kind, and writes them back', () => {
    const json = {
      ...base,
      llm_message: { role: 'user', content: [], thinking_blocks: [] },
      activated_skills: [],
      extended_content: [],
      future_field: { nested: [1, null] },
      kind: 'MessageEvent',
    };
    const event = parseEvent(json);
    expect((event as unknown as Record<string, unknown>).future_field).toEqual({ nested: [1, null] });
    expect(serializeEvent(event)).toBe(JSON.stringify(json));
  });

  it('drops unknown keys of a Message, like the reference (extra="ignore")', () => {
    const event = parseEvent({
      ...base,
      llm_message: { type: 'auth', role: 'user', content: [], cache_enabled: true },
      kind: 'MessageEvent',
    });
    expect(event.kind === 'MessageEvent' && event.llm_message).toEqual({
      role: 'user',
      content: [],
      thinking_blocks: [],
    });
  });

  it('keeps a field named like an Object.prototype member or __proto__ as data', () => {
    const text = `{"id":"e1","timestamp":"t","source":"user","kind":"PauseEvent","constructor":1,"__proto__":{"x":1}}`;
    const event = parseEventJson(text) as unknown as Record<string, unknown>;
    expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
    expect(Object.hasOwn(event, '__proto__')).toBe(true);
    expect(JSON.parse(serializeEvent(event as never))).toEqual(JSON.parse(text));
  });
});

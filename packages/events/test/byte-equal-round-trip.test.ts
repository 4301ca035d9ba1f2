import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventToJson, parseEvent, parseEventJson, serializeEvent, serializeEvents } from '../src/index.js';

const fixtures = join(import.meta.dirname, '__fixtures__');

/** Every event file of the reference's conversations and the format appendix. */
function fixtureFiles(): string[] {
  const files: string[] = [];
  for (const group of ['openhands', 'branched']) {
    const base = join(fixtures, group);
    for (const name of readdirSync(base).filter((entry) => !entry.includes('.'))) {
      const dir = join(base, name, 'events');
      for (const file of readdirSync(dir).filter((entry) => entry.endsWith('.json'))) files.push(join(dir, file));
    }
  }
  const appendix = join(fixtures, 'appendix');
  for (const file of readdirSync(appendix).filter((entry) => entry.endsWith('.json'))) files.push(join(appendix, file));
  return files.sort();
}

describe('byte-equal round trip', () => {
  for (const file of fixtureFiles()) {
    const name = file.slice(fixtures.length + 1);
    it(`${name}: parse → serialize gives the file's bytes`, () => {
      const text = readFileSync(file, 'utf8');
      expect(serializeEvent(parseEventJson(text))).toBe(text);
    });
  }

  for (const file of fixtureFiles().filter((path) => path.includes('/openhands/'))) {
    const name = file.slice(fixtures.length + 1);
    it(`${name}: x writes the reference's bytes even from a fresh value (key order, defaults)`, () => {
      const text = readFileSync(file, 'utf8');
      // parseEvent from a value keeps no text: this is how x writes an event it built itself.
      const event = parseEvent(JSON.parse(text));
      expect(JSON.stringify(eventToJson(event))).toBe(text.trimEnd());
    });
  }

  const pythonNumbers = [
    '{"id":"9d3c1a8e-0000-4000-8000-000000000001","timestamp":"2026-08-22T16:34:54.123456","source":"environment","key":"stats","value":{"usage_to_metrics":{"default":{"model_name":"m","accumulated_cost":1.0,"max_budget_per_task":null,"accumulated_token_usage":{"prompt_tokens":3,"completion_tokens":0,"cache_read_tokens":0,"cache_write_tokens":0,"reasoning_tokens":0,"context_window":0,"per_turn_token":0,"response_id":""}}}},"kind":"ConversationStateUpdateEvent"}',
    '{"id":"9d3c1a8e-0000-4000-8000-000000000002","timestamp":"2026-08-22T16:34:54","source":"agent","llm_message":{"role":"assistant","content":[{"cache_prompt":false,"type":"text","text":"ok"}],"thinking_blocks":[]},"activated_skills":[],"extended_content":[],"critic_result":{"score":1e-07,"message":"x"},"kind":"MessageEvent"}',
    '{"id":"9d3c1a8e-0000-4000-8000-000000000003","timestamp":"2026-08-22T16:34:54.000001","source":"agent","weights":[1.0,2.50,-0.0,1E+300,1e-07],"nested":{"deep":[{"x":10.000}]},"kind":"SomeFutureEvent"}',
  ];
  for (const text of pythonNumbers) {
    it(`keeps Python number spellings: ${text.slice(-40)}`, () => {
      const event = parseEventJson(text);
      expect(serializeEvent(event)).toBe(text);
      expect(serializeEvents([event, event])).toBe(`[${text},${text}]`);
    });
  }

  it('an event built or changed in memory is serialized from its fields', () => {
    const event = parseEventJson(pythonNumbers[1] as string);
    const copy = parseEvent({ ...eventToJson(event), id: '9d3c1a8e-0000-4000-8000-0000000000ff' });
    expect(serializeEvent(copy)).toContain('"id":"9d3c1a8e-0000-4000-8000-0000000000ff"');
    expect(serializeEvent(copy)).toContain('"score":1e-7');
  });
});

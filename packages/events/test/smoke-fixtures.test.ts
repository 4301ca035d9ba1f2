import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEvent, parseEventJson, serializeEvent } from '../src/index.js';

const fixtures = join(import.meta.dirname, '__fixtures__', 'openhands');

describe('reference fixtures', () => {
  for (const name of readdirSync(fixtures).filter((entry) => !entry.includes('.'))) {
    it(`parses and re-serializes every event of ${name} unchanged`, () => {
      const dir = join(fixtures, name, 'events');
      const expected = JSON.parse(readFileSync(join(fixtures, name, 'expected.json'), 'utf8'));
      const files = readdirSync(dir)
        .filter((file) => file.endsWith('.json'))
        .sort();
      const kinds = files.map((file) => {
        const text = readFileSync(join(dir, file), 'utf8');
        const event = parseEventJson(text);
        expect(JSON.parse(serializeEvent(event))).toEqual(JSON.parse(text));
        expect(Object.isFrozen(event)).toBe(true);
        return event.kind;
      });
      expect(kinds).toEqual(expected.kinds);
    });
  }

  it('creates events with reference-format ids and timestamps', () => {
    const event = createEvent('MessageEvent', {
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    });
    expect(event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(event.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
    expect(event.llm_message.content[0]).toEqual({ cache_prompt: false, type: 'text', text: 'hi' });
    expect(() => {
      (event as { source: string }).source = 'agent';
    }).toThrow(TypeError);
  });
});

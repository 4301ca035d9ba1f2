import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type AnyEvent,
  type ChatCompletionsMessage,
  eventsToMessages,
  parseEventJson,
  toChatCompletionsMessages,
  View,
} from '../src/index.js';
import { withParsedToolArguments } from './support/parsed-tool-arguments.js';

const fixtures = join(import.meta.dirname, '__fixtures__', 'openhands');

function readEvents(name: string): AnyEvent[] {
  const dir = join(fixtures, name, 'events');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => parseEventJson(readFileSync(join(dir, file), 'utf8')));
}

describe('reference conversation fixtures → View → Chat Completions messages', () => {
  for (const name of readdirSync(fixtures).filter((entry) => !entry.includes('.'))) {
    it(name, () => {
      const expected = JSON.parse(readFileSync(join(fixtures, name, 'expected.json'), 'utf8'));
      const view = View.fromEvents(readEvents(name));
      const viewIds = view.events.map((event) => event.id);
      expect(viewIds).toEqual(expected.view_event_ids);
      expect(view.events.filter((event) => event.kind !== 'CondensationSummaryEvent').map((event) => event.id)).toEqual(
        expected.llm_visible_event_ids,
      );
      expect(view.unhandledCondensationRequest).toBe(expected.unhandled_condensation_request);

      const messages = eventsToMessages(view.events);
      const list: ChatCompletionsMessage[] = toChatCompletionsMessages(messages, {
        cacheEnabled: false,
        functionCallingEnabled: true,
      });
      expect(withParsedToolArguments(list)).toEqual(withParsedToolArguments(expected.messages));
      const strings = toChatCompletionsMessages(messages, { forceStringSerializer: true });
      expect(withParsedToolArguments(strings)).toEqual(withParsedToolArguments(expected.messages_string_form));
    });
  }
});

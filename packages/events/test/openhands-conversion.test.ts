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

const fixtures = join(import.meta.dirname, '__fixtures__', 'openhands');

function readEvents(name: string): AnyEvent[] {
  const dir = join(fixtures, name, 'events');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => parseEventJson(readFileSync(join(dir, file), 'utf8')));
}

/** Tool-call arguments are Python json.dumps text in the fixtures: compare them as parsed JSON. */
function normalize(messages: readonly unknown[]): unknown[] {
  return messages.map((message) => {
    const { tool_calls, ...rest } = message as { tool_calls?: { function: { arguments: string } }[] };
    if (tool_calls === undefined) return rest;
    return {
      ...rest,
      tool_calls: tool_calls.map((call) => ({
        ...call,
        function: { ...call.function, arguments: JSON.parse(call.function.arguments) },
      })),
    };
  });
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
      expect(normalize(list)).toEqual(normalize(expected.messages));
      const strings = toChatCompletionsMessages(messages, { forceStringSerializer: true });
      expect(normalize(strings)).toEqual(normalize(expected.messages_string_form));
    });
  }
});

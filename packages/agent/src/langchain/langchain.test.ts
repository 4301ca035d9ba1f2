import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AIMessage,
  HumanMessage,
  mapChatMessagesToStoredMessages,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import {
  type AnyEvent,
  ChatImportError,
  eventsToMessages,
  type Message,
  parseEventJson,
  toChatCompletionsMessages,
  View,
} from '@x/events';
import { describe, expect, it } from 'vitest';
import {
  eventsToLangChainMessages,
  fromLangChainMessages,
  fromLangChainStoredMessages,
  type LangChainMessage,
  toLangChainMessages,
  toLangChainStoredMessages,
} from './index.js';

const FIXTURES = fileURLToPath(new URL('../../../events/test/__fixtures__/openhands/', import.meta.url));
const cases = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

function fixtureEvents(name: string): AnyEvent[] {
  const dir = join(FIXTURES, name, 'events');
  return readdirSync(dir)
    .filter((file) => file.startsWith('event-'))
    .sort()
    .map((file) => parseEventJson(readFileSync(join(dir, file), 'utf8')));
}

/** Chat Completions messages with tool-call arguments parsed (the reference writes them with Python's spacing). */
function normalized(messages: unknown): unknown {
  return JSON.parse(JSON.stringify(messages), (key, value) =>
    key === 'arguments' && typeof value === 'string' ? JSON.parse(value) : value,
  );
}

const chatOf = (events: AnyEvent[]) =>
  toChatCompletionsMessages(eventsToMessages(View.fromEvents(events).events), { visionEnabled: true });

describe('LangChain messages of the conversations the Python reference wrote', () => {
  for (const name of cases) {
    it(`${name}: events → LangChain → events gives the messages the reference sends`, async () => {
      const expected = JSON.parse(readFileSync(join(FIXTURES, name, 'expected.json'), 'utf8')).messages as {
        role: string;
        tool_calls?: { id: string }[];
      }[];
      const langChain = await eventsToLangChainMessages(fixtureEvents(name));
      // Real @langchain/core instances, one per message the reference sends, with the same tool calls.
      const classes = { system: SystemMessage, user: HumanMessage, assistant: AIMessage, tool: ToolMessage };
      expect(langChain).toHaveLength(expected.length);
      langChain.forEach((message, index) => {
        expect(message).toBeInstanceOf(classes[expected[index]!.role as keyof typeof classes]);
        expect((message.tool_calls ?? []).map((call) => call.id)).toEqual(
          (expected[index]!.tool_calls ?? []).map((call) => call.id),
        );
      });

      const imported = fromLangChainMessages(langChain);
      expect(normalized(chatOf(imported))).toEqual(normalized(expected));
      const again = await eventsToLangChainMessages(imported);
      expect(mapChatMessagesToStoredMessages(again as AIMessage[])).toEqual(
        mapChatMessagesToStoredMessages(langChain as AIMessage[]),
      );
    });
  }

  it('the stored form (mapChatMessagesToStoredMessages) round-trips through JSON', async () => {
    const events = fixtureEvents('03_parallel_tool_calls');
    const messages = eventsToMessages(View.fromEvents(events).events);
    const stored = JSON.parse(JSON.stringify(await toLangChainStoredMessages(messages)));
    expect(stored.map((message: { type: string }) => message.type)).toEqual([
      'system',
      'human',
      'ai',
      'tool',
      'tool',
      'tool',
      'ai',
      'tool',
    ]);
    expect(stored[2].data.tool_calls[0]).toMatchObject({
      id: 'call_Yd4V3rHfFIOl0BCO9GsImhSL',
      name: 'think',
      args: { thought: expect.stringContaining('SQLite'), summary: 'assess SQLite' },
    });
    expect(stored[3].data).toMatchObject({ tool_call_id: 'call_Yd4V3rHfFIOl0BCO9GsImhSL', name: 'think' });
    const imported = await fromLangChainStoredMessages(stored);
    expect(normalized(chatOf(imported))).toEqual(normalized(chatOf(events)));
  });
});

describe('LangChain messages, edge cases', () => {
  it('keeps arguments that are not a JSON object as an invalid tool call, and reasoning in additional_kwargs', async () => {
    const assistant: Message = {
      role: 'assistant',
      content: [],
      tool_calls: [{ id: 'call_1', name: 'terminal', arguments: '{"command": "ls"', origin: 'completion' }],
      reasoning_content: 'thinking it over',
      thinking_blocks: [],
    };
    const [message] = await toLangChainMessages([assistant]);
    expect(message!.tool_calls).toEqual([]);
    expect(message!.invalid_tool_calls).toMatchObject([{ id: 'call_1', name: 'terminal', args: '{"command": "ls"' }]);
    expect(message!.additional_kwargs).toEqual({ reasoning_content: 'thinking it over' });
    const [action] = fromLangChainMessages([message!]);
    expect(action).toMatchObject({
      kind: 'ActionEvent',
      reasoning_content: 'thinking it over',
      tool_call: { id: 'call_1', name: 'terminal', arguments: '{"command": "ls"' },
    });
  });

  it('carries images as image_url blocks both ways', async () => {
    const user: Message = {
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?', cache_prompt: false },
        { type: 'image', image_urls: ['data:image/png;base64,AAAA'], cache_prompt: false },
      ],
      thinking_blocks: [],
    };
    const [message] = await toLangChainMessages([user]);
    expect(message!.content).toEqual([
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
    ]);
    const [event] = fromLangChainMessages([message!]);
    expect(event).toMatchObject({
      kind: 'MessageEvent',
      llm_message: {
        content: [{ text: 'what is this?' }, { type: 'image', image_urls: ['data:image/png;base64,AAAA'] }],
      },
    });
  });

  it('refuses what events have no place for, naming the message', () => {
    const orphan = new ToolMessage({ content: 'done', tool_call_id: 'never-made' });
    expect(() => fromLangChainMessages([new HumanMessage('hi'), orphan as LangChainMessage])).toThrow(ChatImportError);
    const generic = { type: 'generic', content: 'x' } satisfies LangChainMessage;
    expect(() => fromLangChainMessages([generic])).toThrow(/message 0 \(type\).*"generic" has no event/);
    const audio = new HumanMessage({ content: [{ type: 'input_audio', input_audio: { data: '', format: 'wav' } }] });
    expect(() => fromLangChainMessages([audio as LangChainMessage])).toThrow(/content\[0\]\.type/);
  });
});

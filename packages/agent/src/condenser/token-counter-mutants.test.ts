import { createEvent, type LLMConvertibleEvent, type ToolDefinition } from '@x/events';
import { describe, expect, it } from 'vitest';
import { messageEvents } from './__fixtures__/condenser-fixtures.js';
import {
  approximateTokenCounter,
  countEventTokens,
  shortestPrefixAboveTokenCount,
  suffixLengthForTokenReduction,
  type TokenCounter,
} from './token-counter.js';

// Ten tokens per message; alternating user/agent messages never merge, so one event is one message.
const counter: TokenCounter = ({ messages }) => messages.length * 10;

const terminalTool: ToolDefinition = {
  description: 'Run a shell command',
  action_type: 'TerminalAction',
  kind: 'TerminalTool',
  title: 'terminal',
};

function systemPrompt(tools: ToolDefinition[]): LLMConvertibleEvent {
  return createEvent('SystemPromptEvent', { system_prompt: { type: 'text', text: 'You are an agent.' }, tools });
}

describe('approximateTokenCounter and countEventTokens', () => {
  it('counts a single tool definition', () => {
    const message = { role: 'user' as const, content: 'abc' };
    const withoutTools = approximateTokenCounter({ messages: [message], tools: [] });
    const withTool = approximateTokenCounter({ messages: [message], tools: [terminalTool] });
    expect(withTool - withoutTools).toBe(Math.ceil(JSON.stringify([terminalTool]).length / 4));
  });

  it('counts a single event', () => {
    expect(countEventTokens(messageEvents(1), counter)).toBe(10);
  });

  it('offers the counter the tools of the system prompt, wherever it sits in the events', () => {
    const seen: (readonly ToolDefinition[])[] = [];
    const recording: TokenCounter = ({ tools }) => {
      seen.push(tools);
      return 0;
    };
    countEventTokens([...messageEvents(1), systemPrompt([terminalTool])], recording);
    expect(seen).toEqual([[terminalTool]]);
  });
});

describe('shortestPrefixAboveTokenCount', () => {
  it('finds a prefix of one event and the whole list when only all of it is above', () => {
    const events = messageEvents(10);
    expect(shortestPrefixAboveTokenCount(messageEvents(1), 5, { counter })).toBe(1);
    expect(shortestPrefixAboveTokenCount(events, 5, { counter })).toBe(1);
    expect(shortestPrefixAboveTokenCount(events, 95, { counter })).toBe(10);
  });

  it('counts every event of the prefix from the first one', () => {
    // The first event is the heavy one: a prefix of one is already above 50.
    const heavy: TokenCounter = ({ messages }) =>
      messages.reduce((total, message) => total + (JSON.stringify(message).includes('event-00') ? 100 : 1), 0);
    expect(shortestPrefixAboveTokenCount(messageEvents(10), 50, { counter: heavy })).toBe(1);
  });

  it('never answers an empty prefix, as the reference searches from length 1', () => {
    expect(shortestPrefixAboveTokenCount(messageEvents(10), -1, { counter })).toBe(1);
    expect(shortestPrefixAboveTokenCount([], -1, { counter })).toBe(0);
  });
});

describe('suffixLengthForTokenReduction', () => {
  it('keeps a one-event list whole with nothing to reduce, and drops its event for a single token', () => {
    expect(suffixLengthForTokenReduction(messageEvents(1), 1, { counter })).toBe(0);
    expect(suffixLengthForTokenReduction(messageEvents(1), 0, { counter })).toBe(1);
    expect(suffixLengthForTokenReduction(messageEvents(10), 1, { counter })).toBe(9);
  });
});

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

describe('token utilities', () => {
  it('counts an empty list as 0 tokens', () => {
    expect(countEventTokens([], approximateTokenCounter)).toBe(0);
    expect(approximateTokenCounter({ messages: [], tools: [] })).toBe(0);
  });

  it('approximates characters / 4, rounded up, per rendered message', () => {
    const message = { role: 'user' as const, content: 'abc' };
    const characters = JSON.stringify(message).length;
    expect(approximateTokenCounter({ messages: [message], tools: [] })).toBe(Math.ceil(characters / 4));
    expect(countEventTokens(messageEvents(4), counter)).toBe(40);
  });

  it('finds the shortest prefix strictly above a count', () => {
    const events = messageEvents(10);
    expect(shortestPrefixAboveTokenCount([], 5, { counter })).toBe(0);
    expect(shortestPrefixAboveTokenCount(events, 30, { counter })).toBe(4);
    expect(shortestPrefixAboveTokenCount(events, 29, { counter })).toBe(3);
    expect(shortestPrefixAboveTokenCount(events, 100, { counter })).toBe(10);
    expect(shortestPrefixAboveTokenCount(events, 30, { counter, base: messageEvents(2) })).toBe(4);
    // A base ending in a user message absorbs the first (user) event: it adds no message of its own.
    expect(shortestPrefixAboveTokenCount(events, 30, { counter, base: messageEvents(3) })).toBe(5);
  });

  it('keeps the suffix left after a reduction', () => {
    const events = messageEvents(10);
    expect(suffixLengthForTokenReduction([], 50, { counter })).toBe(0);
    expect(suffixLengthForTokenReduction(events, 0, { counter })).toBe(10);
    expect(suffixLengthForTokenReduction(events, -5, { counter })).toBe(10);
    expect(suffixLengthForTokenReduction(events, 55, { counter })).toBe(4);
  });
});

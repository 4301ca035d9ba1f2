import { createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { action, agentError, message, observation } from './__fixtures__/stuck-events.js';
import { stuckEventsEqual } from './event-equality.js';

describe('stuckEventsEqual', () => {
  it('treats actions with different ids, call ids and response ids as equal', () => {
    const first = action('ls', { thought: 'look around' });
    const second = action('ls', { thought: 'look around' });
    expect(first.id).not.toBe(second.id);
    expect(first.tool_call_id).not.toBe(second.tool_call_id);
    expect(stuckEventsEqual(first, second)).toBe(true);
  });

  it('tells actions apart by arguments, thought, tool name and source', () => {
    const base = action('ls', { thought: 'look' });
    expect(stuckEventsEqual(base, action('pwd', { thought: 'look' }))).toBe(false);
    expect(stuckEventsEqual(base, action('ls', { thought: 'peek' }))).toBe(false);
    expect(stuckEventsEqual(base, action('ls', { thought: 'look', toolName: 'shell' }))).toBe(false);
    expect(stuckEventsEqual(base, { ...action('ls', { thought: 'look' }), source: 'user' })).toBe(false);
  });

  it('compares observations by observation, tool name and source, not by action id', () => {
    const first = observation(action('ls'), 'a.txt');
    const second = observation(action('ls'), 'a.txt');
    expect(stuckEventsEqual(first, second)).toBe(true);
    expect(stuckEventsEqual(first, observation(action('ls'), 'b.txt'))).toBe(false);
  });

  it('compares agent errors by error text only', () => {
    expect(stuckEventsEqual(agentError(action('a'), 'boom'), agentError(action('b'), 'boom'))).toBe(true);
    expect(stuckEventsEqual(agentError(action('a'), 'boom'), agentError(action('a'), 'bang'))).toBe(false);
  });

  it('compares messages by source and llm_message', () => {
    expect(stuckEventsEqual(message('agent', 'hi'), message('agent', 'hi'))).toBe(true);
    expect(stuckEventsEqual(message('agent', 'hi'), message('environment', 'hi'))).toBe(false);
    expect(stuckEventsEqual(message('agent', 'hi'), message('agent', 'ho'))).toBe(false);
  });

  it('never equates different kinds, and compares other kinds in full (ids included)', () => {
    const call = action('ls');
    expect(stuckEventsEqual(call, observation(call, 'x'))).toBe(false);
    const request = createEvent('CondensationRequest', {});
    expect(stuckEventsEqual(request, createEvent('CondensationRequest', {}))).toBe(false);
    expect(stuckEventsEqual(request, { ...request })).toBe(true);
  });
});

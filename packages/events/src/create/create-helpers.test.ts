import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EventParseError } from '../errors/event-parse-error.js';
import { parseEventJson } from '../json/parse-event.js';
import { serializeEvent } from '../json/serialize-event.js';
import { createEventRegistry } from '../registry/event-registry.js';
import {
  createCondensation,
  createCondensationRequest,
  createConversationErrorEvent,
  createConversationStateUpdateEvent,
  createHookExecutionEvent,
  createInterruptEvent,
  createLLMCompletionLogEvent,
  createPauseEvent,
  createServerErrorEvent,
  createStreamingDeltaEvent,
  createTokenEvent,
} from './control-events.js';
import { eventTimestamp } from './ids.js';
import { agentMessage, createSystemPromptEvent, userMessage } from './message-events.js';
import { text } from './text.js';
import {
  createActionEvent,
  createAgentErrorEvent,
  createObservationEvent,
  createUserRejectObservation,
} from './tool-events.js';
import { withParent } from './with-parent.js';

const toolCall = { id: 'call_1', name: 'finish', arguments: '{"message": "hi"}', origin: 'completion' } as const;

describe('creation helpers', () => {
  it('fill source and field defaults per kind', () => {
    expect(userMessage('hi').llm_message).toEqual({ role: 'user', content: [text('hi')], thinking_blocks: [] });
    const reply = agentMessage('done', 'resp-1');
    expect([reply.source, reply.llm_message.role, reply.llm_response_id]).toEqual(['agent', 'assistant', 'resp-1']);
    const system = createSystemPromptEvent({ system_prompt: 'You are helpful', dynamic_context: 'date' });
    expect([system.source, system.tools, system.dynamic_context?.text]).toEqual(['agent', [], 'date']);
    expect(createPauseEvent().source).toBe('user');
    expect(createInterruptEvent().source).toBe('user');
    expect(createCondensationRequest().source).toBe('environment');
    expect(createConversationStateUpdateEvent({ key: 'stats' }).value).toEqual({});
    expect(createStreamingDeltaEvent({ content: 'to' }).source).toBe('agent');
    expect(createTokenEvent({ source: 'agent', prompt_token_ids: [1], response_token_ids: [2] }).kind).toBe(
      'TokenEvent',
    );
    expect(createLLMCompletionLogEvent({ filename: 'a.json', log_data: '{}' })).toMatchObject({
      source: 'environment',
      model_name: 'unknown',
      usage_id: 'default',
    });
    expect(
      createHookExecutionEvent({ hook_event_type: 'Stop', hook_command: 'true', success: true, exit_code: 0 }),
    ).toMatchObject({ source: 'hook', blocked: false, stdout: '', stderr: '' });
    expect(createServerErrorEvent({ code: 'Bad', detail: 'frame' }).source).toBe('environment');
    expect(
      createCondensation({ llm_response_id: 'r', forgotten_event_ids: ['a', 'b', 'a'] }).forgotten_event_ids,
    ).toEqual(['a', 'b']);
  });

  it('derive action and observation ids from the tool call and the action', () => {
    const action = createActionEvent({
      tool_call: toolCall,
      llm_response_id: 'r',
      action: { message: 'hi', kind: 'FinishAction' },
    });
    expect([action.tool_name, action.tool_call_id, action.thought, action.security_risk]).toEqual([
      'finish',
      'call_1',
      [],
      'UNKNOWN',
    ]);
    const observation = createObservationEvent({
      action,
      observation: { content: [text('hi')], kind: 'FinishObservation' },
    });
    expect([observation.tool_name, observation.tool_call_id, observation.action_id]).toEqual([
      'finish',
      'call_1',
      action.id,
    ]);
    const reject = createUserRejectObservation({ action });
    expect([reject.rejection_reason, reject.action_id]).toEqual(['User rejected the action', action.id]);
    const error = createAgentErrorEvent({ tool_name: 'x', tool_call_id: 'c', error: 'boom' });
    expect(error.classification).toEqual({ kind: 'unknown', retryable: false, user_action: 'none' });
  });

  it('validate registered actions against the registry given', () => {
    const registry = createEventRegistry();
    registry.registerActionKind('TerminalAction', z.object({ command: z.string() }));
    expect(() =>
      createActionEvent(
        { tool_call: toolCall, llm_response_id: 'r', action: { kind: 'TerminalAction' } },
        { registry },
      ),
    ).toThrow(EventParseError);
    expect(() =>
      createActionEvent({ tool_call: toolCall, llm_response_id: 'r', action: { kind: 'FinishAction' } }),
    ).toThrow(/action\.message/);
  });

  it('classify a ConversationErrorEvent when no classification is given, and keep kind last', () => {
    const event = createConversationErrorEvent({ code: 'LLMRateLimitError', detail: 'slow down' });
    expect(event.source).toBe('environment');
    expect(event.classification).toEqual({ kind: 'rate_limit', retryable: true, user_action: 'retry' });
    expect(Object.keys(event).at(-1)).toBe('kind');
    const given = createConversationErrorEvent({
      code: 'LLMRateLimitError',
      detail: 'x',
      classification: { kind: 'internal', retryable: false },
    });
    expect(given.classification).toEqual({ kind: 'internal', retryable: false, user_action: 'none' });
  });

  it('treat null as absent and freeze the result without freezing the caller input', () => {
    const value = { nested: { a: 1 } };
    const event = createConversationStateUpdateEvent({ key: 'k', value, parent_id: null as unknown as undefined });
    expect('parent_id' in event).toBe(false);
    expect(Object.isFrozen(event.value)).toBe(true);
    expect(Object.isFrozen(value)).toBe(false);
  });
});

describe('withParent', () => {
  it('returns a frozen copy with parent_id right after source', () => {
    const event = userMessage('hi');
    const child = withParent(event, 'parent-1');
    expect(child.parent_id).toBe('parent-1');
    expect(event.parent_id).toBeUndefined();
    expect(Object.keys(child).slice(0, 4)).toEqual(['id', 'timestamp', 'source', 'parent_id']);
    expect(Object.isFrozen(child)).toBe(true);
    expect(withParent(child, 'parent-2').parent_id).toBe('parent-2');
    expect(() => withParent(event, '')).toThrow(TypeError);
  });

  it('updates the JSON of an opaque event too', () => {
    const opaque = parseEventJson('{"id":"e1","timestamp":"t","source":"user","x":1,"kind":"FutureEvent"}');
    expect(serializeEvent(withParent(opaque, 'p'))).toBe(
      '{"id":"e1","timestamp":"t","source":"user","parent_id":"p","x":1,"kind":"FutureEvent"}',
    );
  });
});

describe('eventTimestamp', () => {
  it('is strictly increasing within a process and uses the reference format', () => {
    const stamps = Array.from({ length: 200 }, () => eventTimestamp());
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]! > stamps[i - 1]!).toBe(true);
    expect(eventTimestamp(new Date(2026, 7, 22, 16, 34, 54, 123))).toBe('2026-08-22T16:34:54.123000');
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AGENT_ACTION_CLASSIFICATION,
  createActionEvent,
  createAgentErrorEvent,
  createConversationErrorEvent,
  createCustomEvent,
  createObservationEvent,
  eventToLlmMessage,
  parseEvent,
  parseEventJson,
  registerActionKind,
  registerEventKind,
  registerObservationKind,
  safeParseEvent,
  serializeEvent,
  text,
  userMessage,
  withParent,
} from '../src/index.js';

// The README's examples, run as written (the package root resolves to the sources in tests).
describe('README examples', () => {
  it('creating events', () => {
    const question = userMessage('Flip a coin!');
    const action = withParent(
      createActionEvent({
        tool_call: { id: 'call_abc', name: 'finish', arguments: '{"message": "Heads!"}', origin: 'completion' },
        llm_response_id: 'chatcmpl-123',
        thought: [text('Done.')],
        action: { message: 'Heads!', kind: 'FinishAction' },
      }),
      question.id,
    );
    const result = createObservationEvent({
      action,
      observation: { content: [text('Heads!')], kind: 'FinishObservation' },
    });
    const failure = createConversationErrorEvent({ code: 'LLMRateLimitError', detail: 'slow down' });
    const toolError = createAgentErrorEvent({
      tool_name: 'x',
      tool_call_id: 'c',
      error: 'no such tool',
      classification: AGENT_ACTION_CLASSIFICATION,
    });
    expect(action.parent_id).toBe(question.id);
    expect(result.action_id).toBe(action.id);
    expect(failure.classification).toEqual({ kind: 'rate_limit', retryable: true, user_action: 'retry' });
    expect(toolError.classification.kind).toBe('agent_action');
  });

  it('parsing and serializing', () => {
    const text = '{"id":"e1","timestamp":"2026-08-22T16:34:54.123456","source":"user","kind":"PauseEvent"}';
    expect(serializeEvent(parseEventJson(text))).toBe(text);
    const result = safeParseEvent({ id: 'abc', kind: 'ActionEvent', source: 'agent' });
    expect(!result.success && result.error.message).toMatch(
      /^Invalid event \(kind ActionEvent, id abc\): timestamp: Invalid input/,
    );
  });

  it('registering kinds', () => {
    registerActionKind('TerminalAction', z.object({ command: z.string(), timeout: z.number().optional() }));
    registerObservationKind('TerminalObservation', z.object({ exit_code: z.number().int() }), {
      toLlmContent: (observation) => [...observation.content, text(`exit code ${observation.exit_code}`)],
    });
    const note = registerEventKind(
      'NoteEvent',
      z.object({ note: z.string(), source: z.enum(['user', 'agent']).default('user') }),
      { toLlmMessage: (event) => ({ role: 'user', content: [text(event.note)], thinking_blocks: [] }) },
    );
    const created = createCustomEvent(note, { note: 'remember the milk' });
    const parsed = parseEvent(JSON.parse(JSON.stringify(created)));
    expect(note.match(parsed)?.note).toBe('remember the milk');
    expect(note.is(JSON.parse(serializeEvent(parsed)))).toBe(true);
    expect(note.match(userMessage('hi'))).toBeUndefined();
    expect(eventToLlmMessage(parsed)?.content).toEqual([text('remember the milk')]);
    expect(() =>
      createActionEvent({
        tool_call: { id: 'c', name: 'terminal', arguments: '{}', origin: 'completion' },
        llm_response_id: 'r',
        action: { kind: 'TerminalAction' },
      }),
    ).toThrow(/action\.command/);
  });
});

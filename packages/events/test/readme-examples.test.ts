import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AGENT_ACTION_CLASSIFICATION,
  activeBranch,
  createActionEvent,
  createAgentErrorEvent,
  createConversationErrorEvent,
  createCustomEvent,
  createObservationEvent,
  createPauseEvent,
  EventTree,
  eventToLlmMessage,
  parentForAppend,
  parseEvent,
  parseEventJson,
  ROOT_PARENT_ID,
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
    registerActionKind('BuildAction', z.object({ target: z.string(), timeout: z.number().optional() }));
    registerObservationKind('BuildObservation', z.object({ exit_code: z.number().int() }), {
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
        action: { kind: 'BuildAction' },
      }),
    ).toThrow(/action\.target/);
  });

  it('conversation tree', () => {
    const root = createPauseEvent({});
    const first = withParent(createPauseEvent({}), root.id);
    const second = withParent(createPauseEvent({}), root.id);
    const events = [root, first, second];
    const baseState = { leaf_event_id: first.id, head_is_empty: false };
    const branch = activeBranch(events, { leafEventId: baseState.leaf_event_id, headIsEmpty: baseState.head_is_empty });
    expect(branch).toEqual([root, first]);
    const tree = EventTree.from(events);
    const next = withParent(createPauseEvent({}), second.id);
    tree.add(next);
    const head = tree.activeLeaf(undefined, false);
    expect(head).toBe(next.id);
    expect(tree.pathToRoot(head)).toEqual([0, 2, 3]);
    expect(parentForAppend(head, 4)).toBe(next.id);
    expect(parentForAppend(undefined, 4)).toBe(ROOT_PARENT_ID);
  });
});

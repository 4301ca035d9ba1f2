import { parseEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { agUiEventsOf, sseFrames } from './agui-events.js';

const base = { timestamp: '2026-01-01T00:00:00.000000' };
const t = (text: string) => ({ cache_prompt: false, type: 'text' as const, text });

describe('agUiEventsOf', () => {
  it('maps an agent message to one text message whose id is the event id; user messages to nothing', () => {
    const agent = parseEvent({
      ...base,
      id: 'm1',
      source: 'agent',
      llm_message: { role: 'assistant', content: [t('Hello')] },
      kind: 'MessageEvent',
    });
    expect(agUiEventsOf(agent)).toEqual([
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hello' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    ]);
    const user = parseEvent({
      ...base,
      id: 'm2',
      source: 'user',
      llm_message: { role: 'user', content: [t('Hi')] },
      kind: 'MessageEvent',
    });
    expect(agUiEventsOf(user)).toEqual([]);
  });

  it('maps an action to its thought and a tool call with the model’s id and arguments', () => {
    const action = parseEvent({
      ...base,
      id: 'a1',
      source: 'agent',
      thought: [t('Listing first.')],
      action: { command: 'ls', kind: 'TerminalAction' },
      tool_name: 'terminal',
      tool_call_id: 'call_1',
      tool_call: { id: 'call_1', name: 'terminal', arguments: '{"command":"ls"}', origin: 'completion' },
      llm_response_id: 'r1',
      kind: 'ActionEvent',
    });
    expect(agUiEventsOf(action)).toEqual([
      { type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'Listing first.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'a1' },
      { type: 'TOOL_CALL_START', toolCallId: 'call_1', toolCallName: 'terminal', parentMessageId: 'a1' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'call_1', delta: '{"command":"ls"}' },
      { type: 'TOOL_CALL_END', toolCallId: 'call_1' },
    ]);
  });

  it('maps observations, rejections and tool errors to tool call results', () => {
    const observation = parseEvent({
      ...base,
      id: 'o1',
      source: 'environment',
      tool_name: 'terminal',
      tool_call_id: 'call_1',
      action_id: 'a1',
      observation: { content: [t('a.txt')], is_error: false, kind: 'ThinkObservation' },
      kind: 'ObservationEvent',
    });
    expect(agUiEventsOf(observation)).toEqual([
      { type: 'TOOL_CALL_RESULT', messageId: 'o1', toolCallId: 'call_1', content: 'a.txt', role: 'tool' },
    ]);
    const rejection = parseEvent({
      ...base,
      id: 'o2',
      source: 'user',
      tool_name: 'terminal',
      tool_call_id: 'call_2',
      action_id: 'a2',
      rejection_reason: 'too risky',
      kind: 'UserRejectObservation',
    });
    expect(agUiEventsOf(rejection)).toEqual([
      {
        type: 'TOOL_CALL_RESULT',
        messageId: 'o2',
        toolCallId: 'call_2',
        content: 'Action rejected: too risky',
        role: 'tool',
      },
    ]);
    const failure = parseEvent({
      ...base,
      id: 'o3',
      source: 'agent',
      tool_name: 'nope',
      tool_call_id: 'call_3',
      error: "Tool 'nope' not found",
      kind: 'AgentErrorEvent',
    });
    expect(agUiEventsOf(failure)).toMatchObject([{ type: 'TOOL_CALL_RESULT', toolCallId: 'call_3' }]);
  });

  it('maps state updates (the shared state’s, see shared-state.ts) and control events to nothing', () => {
    const update = parseEvent({
      ...base,
      id: 's1',
      source: 'environment',
      key: 'a/b~c',
      value: 3,
      kind: 'ConversationStateUpdateEvent',
    });
    expect(agUiEventsOf(update)).toEqual([]);
    expect(agUiEventsOf(parseEvent({ ...base, id: 'p1', kind: 'PauseEvent' }))).toEqual([]);
  });
});

describe('sseFrames', () => {
  it('puts the log index as the SSE id on the last frame only', () => {
    const text = sseFrames(
      [
        { type: 'TOOL_CALL_END', toolCallId: 'c' },
        { type: 'TOOL_CALL_END', toolCallId: 'd' },
      ],
      7,
    );
    expect(text).toBe(
      'data: {"type":"TOOL_CALL_END","toolCallId":"c"}\n\nid: 7\ndata: {"type":"TOOL_CALL_END","toolCallId":"d"}\n\n',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { createConversationErrorEvent, createServerErrorEvent } from '../create/control-events.js';
import { agentMessage, createMessageEvent, createSystemPromptEvent, userMessage } from '../create/message-events.js';
import { text } from '../create/text.js';
import {
  createActionEvent,
  createAgentErrorEvent,
  createObservationEvent,
  createUserRejectObservation,
} from '../create/tool-events.js';
import { parseEventJson } from '../json/parse-event.js';
import { getEventError } from './event-error.js';
import { getEventText, getEventThinking } from './event-text.js';
import { getEventToolCalls, isFinalResponse } from './event-tool-calls.js';
import { observationText } from './observation-text.js';
import { toolNameFromToolKind } from './tool-name.js';

const call = { id: 'call_1', name: 'think', arguments: '{"thought": "x"}', origin: 'completion' } as const;
const think = createActionEvent({
  tool_call: call,
  llm_response_id: 'r',
  thought: [text('Let me '), text('think.')],
  reasoning_content: 'because',
  thinking_blocks: [
    { type: 'thinking', thinking: 'deep' },
    { type: 'redacted_thinking', data: 'zzz' },
  ],
  action: { thought: 'x', kind: 'ThinkAction' },
});

describe('accessors', () => {
  it('getEventText covers messages, actions, observations, errors and summaries', () => {
    const message = createMessageEvent({
      source: 'user',
      llm_message: {
        role: 'user',
        content: [text('Hello'), { type: 'image', image_urls: ['data:x'] }, text(' world')],
      },
      extended_content: [text('!')],
    });
    expect(getEventText(message)).toBe('Hello world!');
    expect(getEventText(think)).toBe('Let me think.');
    const observation = createObservationEvent({
      action: think,
      observation: { content: [text('a'), text('b')], kind: 'ThinkObservation' },
    });
    expect(getEventText(observation)).toBe('ab');
    expect(getEventText(createUserRejectObservation({ action: think, rejection_reason: 'no' }))).toBe('no');
    expect(getEventText(createAgentErrorEvent({ tool_name: 't', tool_call_id: 'c', error: 'boom' }))).toBe('boom');
    expect(getEventText(createConversationErrorEvent({ code: 'X', detail: 'bad' }))).toBe('bad');
    expect(getEventText(createSystemPromptEvent({ system_prompt: 'sys', dynamic_context: 'ctx' }))).toBe('sys\nctx');
    expect(getEventText(parseEventJson('{"id":"e","timestamp":"t","kind":"FutureEvent","text":"x"}'))).toBe('');
  });

  it('getEventThinking joins reasoning content and thinking blocks', () => {
    expect(getEventThinking(think)).toBe('because\ndeep');
    // An Anthropic response stores its thinking both ways: returned once.
    const anthropic = {
      ...think,
      reasoning_content: 'First, the schema.\nThen the index.',
      thinking_blocks: [
        { type: 'thinking' as const, thinking: 'First, the schema.', signature: 's1' },
        { type: 'thinking' as const, thinking: 'Then the index.', signature: 's2' },
      ],
    };
    expect(getEventThinking(anthropic)).toBe('First, the schema.\nThen the index.');
    expect(getEventThinking(userMessage('hi'))).toBe('');
  });

  it('getEventToolCalls and isFinalResponse', () => {
    expect(getEventToolCalls(think)).toEqual([call]);
    const withCalls = createMessageEvent({
      source: 'agent',
      llm_message: { role: 'assistant', content: [], tool_calls: [call] },
    });
    expect(getEventToolCalls(withCalls)).toEqual([call]);
    expect(getEventToolCalls(userMessage('hi'))).toEqual([]);
    expect(isFinalResponse(agentMessage('done'))).toBe(true);
    expect(isFinalResponse(withCalls)).toBe(false);
    expect(isFinalResponse(userMessage('hi'))).toBe(false);
    expect(isFinalResponse(think)).toBe(false);
    const finish = createActionEvent({
      tool_call: { ...call, name: 'finish' },
      llm_response_id: 'r',
      action: { message: 'ok', kind: 'FinishAction' },
    });
    expect(isFinalResponse(finish)).toBe(true);
  });

  it('getEventError reads every error-bearing kind', () => {
    expect(getEventError(createAgentErrorEvent({ tool_name: 't', tool_call_id: 'c', error: 'boom' }))).toEqual({
      message: 'boom',
      classification: { kind: 'unknown', retryable: false, user_action: 'none' },
    });
    expect(getEventError(createConversationErrorEvent({ code: 'MaxIterationsReached', detail: 'limit' }))).toEqual({
      code: 'MaxIterationsReached',
      message: 'limit',
      classification: { kind: 'agent_action', retryable: false, user_action: 'none' },
    });
    expect(getEventError(createServerErrorEvent({ code: 'C', detail: 'd' }))).toEqual({ code: 'C', message: 'd' });
    const failed = createObservationEvent({
      action: think,
      observation: { content: [text('exit 1')], is_error: true, kind: 'X' },
    });
    expect(getEventError(failed)).toEqual({ message: 'exit 1' });
    expect(getEventError(userMessage('hi'))).toBeUndefined();
  });

  it('observationText concatenates text parts without a separator', () => {
    expect(
      observationText({
        content: [text('a'), { cache_prompt: false, type: 'image', image_urls: [] }, text('b')],
        is_error: false,
        kind: 'K',
      }),
    ).toBe('ab');
  });

  it.each([
    ['FileEditorTool', 'file_editor'],
    ['FinishTool', 'finish'],
    ['TerminalTool', 'terminal'],
    ['TaskTrackerTool', 'task_tracker'],
    ['MCPTool', 'mcp'],
    ['Search', 'search'],
  ])('toolNameFromToolKind(%s) is %s', (kind, name) => {
    expect(toolNameFromToolKind(kind)).toBe(name);
  });
});

// What the AG-UI mapping gives a client beyond the shapes `agui-events.test.ts` checks: a tool error's result says
// what went wrong, an agent message with no text is no message, and frames that stand for no log event carry no
// SSE id (a reconnect must not resume from them).
import { parseEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { agUiEventsOf, sseFrames } from './agui-events.js';

const base = { timestamp: '2026-01-01T00:00:00.000000' };

describe('agUiEventsOf, what a client reads', () => {
  it('gives a tool error as the result of its call, the error text its content', () => {
    const failure = parseEvent({
      ...base,
      id: 'o3',
      source: 'agent',
      tool_name: 'nope',
      tool_call_id: 'call_3',
      error: "Tool 'nope' not found",
      kind: 'AgentErrorEvent',
    });
    expect(agUiEventsOf(failure)).toEqual([
      {
        type: 'TOOL_CALL_RESULT',
        messageId: 'o3',
        toolCallId: 'call_3',
        content: "Tool 'nope' not found",
        role: 'tool',
      },
    ]);
  });

  it('gives a tool error of no words (empty or blank) the fallback naming the tool, never an empty result', () => {
    for (const error of ['', ' \n\t']) {
      const failure = parseEvent({
        ...base,
        id: 'o4',
        source: 'agent',
        tool_name: 'deploy',
        tool_call_id: 'call_4',
        error,
        kind: 'AgentErrorEvent',
      });
      expect(agUiEventsOf(failure)).toEqual([
        { type: 'TOOL_CALL_RESULT', messageId: 'o4', toolCallId: 'call_4', content: 'deploy failed', role: 'tool' },
      ]);
    }
  });

  it('maps an agent message without text to nothing', () => {
    const empty = parseEvent({
      ...base,
      id: 'm0',
      source: 'agent',
      llm_message: { role: 'assistant', content: [] },
      kind: 'MessageEvent',
    });
    expect(agUiEventsOf(empty)).toEqual([]);
  });
});

describe('sseFrames without a log index', () => {
  it('puts no SSE id on any frame', () => {
    expect(
      sseFrames([
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'a' },
        { type: 'TEXT_MESSAGE_END', messageId: 'm' },
      ]),
    ).toBe(
      'data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a"}\n\ndata: {"type":"TEXT_MESSAGE_END","messageId":"m"}\n\n',
    );
  });
});

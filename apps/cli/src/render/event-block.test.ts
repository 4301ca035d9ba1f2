import { createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { createColors } from './colors.js';
import { eventBlock } from './event-block.js';

const colors = createColors(false);

function terminalAction(command: string, summary?: string, thought = 'Looking around.') {
  return createEvent('ActionEvent', {
    thought: [{ type: 'text', text: thought }],
    action: { kind: 'TerminalAction', command },
    tool_name: 'terminal',
    tool_call_id: 'call_1',
    tool_call: { id: 'call_1', name: 'terminal', arguments: JSON.stringify({ command }), origin: 'completion' },
    llm_response_id: 'response_1',
    ...(summary === undefined ? {} : { summary }),
  });
}

describe('eventBlock', () => {
  it('shows a tool call with the thought, the model summary and the command', () => {
    const lines = eventBlock(terminalAction('ls -la', 'list files'), { colors, index: 4 });
    expect(lines).toEqual(['◀ Agent #4', '  Looking around.', '⚙ terminal — list files', '  $ ls -la']);
  });

  it('leaves out the summary the parser makes up from the arguments', () => {
    const lines = eventBlock(terminalAction('ls', 'terminal: {"command": "ls"}'), { colors });
    expect(lines?.[2]).toBe('⚙ terminal');
  });

  it('truncates long observations with a note of what was left out', () => {
    const output = Array.from({ length: 200 }, (_, index) => `row ${index}`).join('\n');
    const event = createEvent('ObservationEvent', {
      tool_name: 'terminal',
      tool_call_id: 'call_1',
      action_id: 'a',
      observation: {
        kind: 'TerminalObservation',
        content: [{ type: 'text', text: output }],
        is_error: true,
        exit_code: 2,
      },
    });
    const lines = eventBlock(event, { colors, index: 5 }) ?? [];
    expect(lines[0]).toBe('✖ terminal failed exit 2 #5');
    expect(lines).toContain('  │ … 182 more lines …');
    expect(lines.at(-1)).toBe('  │ row 199');
  });

  it('shows errors and state changes, and hides stats updates', () => {
    const error = createEvent('ConversationErrorEvent', {
      source: 'environment',
      code: 'MaxIterationsReached',
      detail: 'Too many.',
    });
    expect(eventBlock(error, { colors })).toEqual(['✖ MaxIterationsReached', '  Too many.']);
    const status = createEvent('ConversationStateUpdateEvent', { key: 'execution_status', value: 'finished' });
    expect(eventBlock(status, { colors, index: 9 })).toEqual(['· status finished #9']);
    const stats = createEvent('ConversationStateUpdateEvent', { key: 'stats', value: {} });
    expect(eventBlock(stats, { colors })).toBeUndefined();
  });

  it('does not print again a thought or a reply already streamed, even one holding control characters', () => {
    // Streamed as it came; the event's text is shown with its control characters spelled out (`\r`, `\x1b`).
    const streamed = 'Checking\r\nthe \u001b[31mfiles\u001b[0m.';
    const action = eventBlock(terminalAction('ls', 'list files', streamed), {
      colors,
      index: 3,
      streamedText: streamed,
    });
    expect(action).toEqual(['⚙ terminal — list files #3', '  $ ls']);
    const reply = createEvent('MessageEvent', {
      source: 'agent',
      llm_message: { role: 'assistant', content: [{ type: 'text', text: streamed }] },
    });
    expect(eventBlock(reply, { colors, streamedText: streamed })).toBeUndefined();
    // Another text than the one streamed is shown, spelled out.
    expect(eventBlock(terminalAction('ls', undefined, streamed), { colors, streamedText: 'Checking' })?.[1]).toBe(
      '  Checking\\r',
    );
  });
});

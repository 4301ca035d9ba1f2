import { createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { createColors } from './colors.js';
import { eventBlock } from './event-block.js';

const colors = createColors(false);

function message(source: 'user' | 'agent', text: string, extra: Record<string, unknown> = {}) {
  return createEvent('MessageEvent', {
    source,
    llm_message: { role: source === 'user' ? 'user' : 'assistant', content: [{ type: 'text', text }], ...extra },
  });
}

function hook(fields: { success: boolean; blocked?: boolean; reason?: string; stderr?: string; error?: string }) {
  return createEvent('HookExecutionEvent', {
    hook_event_type: 'PreToolUse',
    hook_command: './check.sh',
    exit_code: fields.success ? 0 : 2,
    ...fields,
  });
}

describe('eventBlock for each kind a reader sees', () => {
  it('shows who said a message, and the index of a persisted one only', () => {
    expect(eventBlock(message('user', 'hi'), { colors, index: 0 })).toEqual(['▶ User #0', '  hi']);
    expect(eventBlock(message('agent', 'hello'), { colors })).toEqual(['◀ Agent', '  hello']);
  });

  it('shows the reasoning of a reply already streamed, though not its text again', () => {
    const reply = message('agent', 'done', { reasoning_content: 'first think' });
    expect(eventBlock(reply, { colors, streamedText: 'done' })).toEqual(['◀ Agent', '  first think', '  done']);
    expect(eventBlock(message('agent', 'done'), { colors, streamedText: 'done' })).toBeUndefined();
  });

  it('shows an agent error without a margin, and an interruption', () => {
    const error = createEvent('AgentErrorEvent', { tool_name: 'terminal', tool_call_id: 'c1', error: 'bad args' });
    expect(eventBlock(error, { colors })).toEqual(['✖ Error in terminal', '  bad args']);
    expect(eventBlock(createEvent('InterruptEvent', {}), { colors, index: 7 })).toEqual(['‖ Interrupted #7']);
  });

  it('shows how a hook ended: blocked with its reason or its stderr, ok, or failed with its error', () => {
    const line = (event: ReturnType<typeof hook>) => eventBlock(event, { colors })?.[0];
    expect(line(hook({ success: true, blocked: true, reason: 'not here', stderr: 'noise' }))).toBe(
      '⚑ Hook PreToolUse ./check.sh · blocked: not here',
    );
    expect(line(hook({ success: true, blocked: true, stderr: ' denied \n' }))).toBe(
      '⚑ Hook PreToolUse ./check.sh · blocked: denied',
    );
    expect(line(hook({ success: true, blocked: true }))).toBe('⚑ Hook PreToolUse ./check.sh · blocked');
    expect(line(hook({ success: true }))).toBe('⚑ Hook PreToolUse ./check.sh · ok');
    expect(line(hook({ success: false, error: 'crashed' }))).toBe(
      '⚑ Hook PreToolUse ./check.sh · failed (exit 2): crashed',
    );
  });
  it('shows the reasoning of a tool call whose thought was streamed, and not the thought again', () => {
    const action = createEvent('ActionEvent', {
      thought: [{ type: 'text', text: 'Looking.' }],
      reasoning_content: 'the files first',
      action: { kind: 'TerminalAction', command: 'ls' },
      tool_name: 'terminal',
      tool_call_id: 'c1',
      tool_call: { id: 'c1', name: 'terminal', arguments: '{"command":"ls"}', origin: 'completion' },
      llm_response_id: 'r1',
    });
    expect(eventBlock(action, { colors, streamedText: 'Looking.' })).toEqual([
      '◀ Agent',
      '  the files first',
      '⚙ terminal',
      '  $ ls',
    ]);
    expect(eventBlock(action, { colors })?.slice(0, 3)).toEqual(['◀ Agent', '  the files first', '  Looking.']);
  });
});

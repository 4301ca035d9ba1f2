import { createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { eventSummaryText, truncateMiddle } from './event-summary-text.js';

describe('eventSummaryText: every kind the summarizer may be shown', () => {
  it('renders the system prompt text', () => {
    const prompt = createEvent('SystemPromptEvent', { system_prompt: { type: 'text', text: 'Be brief.' }, tools: [] });
    expect(eventSummaryText(prompt)).toBe('SystemPromptEvent (agent)\nBe brief.');
  });

  it('renders an action’s thought before the tool, and no Thought line without one', () => {
    const call = (thought: string) =>
      createEvent('ActionEvent', {
        thought: thought === '' ? [] : [{ type: 'text', text: thought }],
        action: { kind: 'TerminalAction', command: 'ls' },
        tool_name: 'terminal',
        tool_call_id: 'c1',
        tool_call: { id: 'c1', name: 'terminal', arguments: '{"command":"ls"}', origin: 'completion' },
        llm_response_id: 'r1',
      });
    expect(eventSummaryText(call('list the files'))).toBe(
      'ActionEvent (agent)\nThought: list the files\nTool: terminal\nArguments: {"command":"ls"}',
    );
    expect(eventSummaryText(call(''))).not.toContain('Thought');
  });

  it('marks a failed result and a rejected action', () => {
    const failed = createEvent('ObservationEvent', {
      tool_name: 'terminal',
      tool_call_id: 'c1',
      action_id: 'a1',
      observation: { kind: 'TerminalObservation', content: [{ type: 'text', text: 'no such file' }], is_error: true },
    });
    expect(eventSummaryText(failed)).toBe(
      'ObservationEvent (environment)\nTool: terminal (error)\nResult: no such file',
    );
    const rejected = createEvent('UserRejectObservation', {
      tool_name: 'terminal',
      tool_call_id: 'c1',
      action_id: 'a1',
      rejection_reason: 'too risky',
    });
    expect(eventSummaryText(rejected)).toBe('UserRejectObservation (environment)\nTool: terminal\nRejected: too risky');
  });

  it('shows images as a placeholder among the text', () => {
    const message = createEvent('MessageEvent', {
      source: 'user',
      llm_message: {
        role: 'user',
        content: [
          { type: 'text', text: 'see this' },
          { type: 'image', image_urls: ['data:image/png;base64,AAAA'] },
        ],
      },
    });
    expect(eventSummaryText(message)).toBe('MessageEvent (user) user:\nsee this\n[image]');
  });
});

describe('truncateMiddle: boundaries', () => {
  it('leaves text of exactly the limit alone and cuts text one longer', () => {
    const text = 'x'.repeat(100);
    expect(truncateMiddle(text, 100)).toBe(text);
    const cut = truncateMiddle(`${text}y`, 100);
    expect(cut).toHaveLength(100);
    expect(cut).toContain('\n[... 1 characters omitted ...]\n');
    expect(cut.endsWith('y')).toBe(true);
  });

  it('keeps the head alone when the limit is exactly the notice’s length', () => {
    const text = `HEAD${'x'.repeat(200)}`;
    const notice = `\n[... ${text.length - 34} characters omitted ...]\n`;
    expect(notice).toHaveLength(34);
    expect(truncateMiddle(text, 34)).toBe(text.slice(0, 34));
  });
});

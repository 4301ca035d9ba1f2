import { createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { toolPair } from '../__fixtures__/condenser-fixtures.js';
import { eventSummaryText, truncateMiddle } from './event-summary-text.js';

describe('eventSummaryText', () => {
  it('renders tool calls, results and errors with what the summarizer needs', () => {
    const [call, result] = toolPair(7);
    expect(eventSummaryText(call!)).toBe('ActionEvent (agent)\nTool: terminal\nArguments: {"command": "echo"}');
    expect(eventSummaryText(result!)).toBe('ObservationEvent (environment)\nTool: terminal\nResult: 7');
    const error = createEvent('AgentErrorEvent', { tool_name: 'terminal', tool_call_id: 'c', error: 'bad args' });
    expect(eventSummaryText(error)).toBe('AgentErrorEvent (agent)\nTool: terminal\nError: bad args');
    const summary = createEvent('CondensationSummaryEvent', { summary: 'before' });
    expect(eventSummaryText(summary)).toBe('CondensationSummaryEvent (environment) earlier summary:\nbefore');
  });
});

describe('truncateMiddle', () => {
  it('keeps head and tail within the limit and leaves short text alone', () => {
    const text = `HEAD${'x'.repeat(200)}TAIL`;
    const cut = truncateMiddle(text, 80);
    expect(cut).toHaveLength(80);
    expect(cut.startsWith('HEAD')).toBe(true);
    expect(cut.endsWith('TAIL')).toBe(true);
    expect(cut).toContain('characters omitted');
    expect(truncateMiddle('short', 80)).toBe('short');
    expect(truncateMiddle(text, undefined)).toBe(text);
    expect(truncateMiddle(text, 10)).toBe('HEADxxxxxx');
  });
});

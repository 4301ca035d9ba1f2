// A decision on a call to a tool the agent no longer has (removed between the pause and the decision) is refused
// with an error that says so, whatever the decision, instead of failing inside the tool's shape.
import { createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { thinkTool } from '../tools/think-tool.js';
import { decisionEvents } from './decision-events.js';
import { InvalidDecisionError } from './errors/invalid-decision-error.js';

const call = createEvent('ActionEvent', {
  thought: [],
  action: { command: 'ls', kind: 'TerminalAction' },
  tool_name: 'terminal',
  tool_call_id: 'call_1',
  tool_call: { id: 'call_1', name: 'terminal', arguments: '{"command":"ls"}', origin: 'completion' },
  llm_response_id: 'response-1',
});

function refusal(run: () => unknown): InvalidDecisionError {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(InvalidDecisionError.isInstance(thrown)).toBe(true);
  return thrown as InvalidDecisionError;
}

describe('a decision on a call to a tool that is not available', () => {
  it('refuses a substitute result, naming the tool', () => {
    const error = refusal(() =>
      decisionEvents(call, { kind: 'substitute', result: { content: 'pretend output' } }, [thinkTool]),
    );
    expect(error.message).toBe(`Decision for action ${call.id}: tool 'terminal' is not available`);
    expect(error.actionId).toBe(call.id);
  });

  it('refuses edited arguments, naming the tool', () => {
    const error = refusal(() => decisionEvents(call, { kind: 'approve', arguments: { command: 'pwd' } }, [thinkTool]));
    expect(error.message).toBe(`Decision for action ${call.id}: tool 'terminal' is not available`);
  });

  it('still records a denial (it needs nothing of the tool)', () => {
    const [rejection] = decisionEvents(call, { kind: 'deny', reason: 'no' }, []);
    expect(rejection).toMatchObject({ kind: 'UserRejectObservation', action_id: call.id, rejection_reason: 'no' });
  });
});

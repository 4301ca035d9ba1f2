import { type ActionEvent, createEvent, type SecurityRisk } from '@x/events';
import { describe, expect, it } from 'vitest';
import type { ConfirmationPolicyInput } from './confirmation-policy.js';
import { InvalidConfirmationPolicyError } from './invalid-confirmation-policy-error.js';
import { requiresConfirmation } from './requires-confirmation.js';
import { llmRiskAnalyzer } from './security-analyzer.js';

let callCount = 0;

// Fields each built-in action kind requires; other kinds are free-form.
const actionFields: Record<string, Record<string, string>> = {
  FinishAction: { message: 'done' },
  ThinkAction: { thought: 'planning' },
  TerminalAction: { command: 'ls' },
};

function actionEvent(kind: string | null, securityRisk: SecurityRisk = 'UNKNOWN'): ActionEvent {
  callCount += 1;
  const id = `call_${callCount}`;
  return createEvent('ActionEvent', {
    thought: [],
    ...(kind === null ? {} : { action: { kind, ...actionFields[kind] } }),
    tool_name: kind === null ? 'missing_tool' : 'terminal',
    tool_call_id: id,
    tool_call: { id, name: 'terminal', arguments: '{}', origin: 'completion' },
    llm_response_id: 'response_1',
    security_risk: securityRisk,
  });
}

const always: ConfirmationPolicyInput = { kind: 'AlwaysConfirm' };
const never: ConfirmationPolicyInput = { kind: 'NeverConfirm' };
const risky: ConfirmationPolicyInput = { kind: 'ConfirmRisky' };
const riskyKnownOnly: ConfirmationPolicyInput = { kind: 'ConfirmRisky', confirm_unknown: false };

describe('requiresConfirmation', () => {
  it('is false with no actions', () => {
    expect(requiresConfirmation([], always)).toBe(false);
  });

  it('is false for a lone finish or think action, even under AlwaysConfirm', () => {
    expect(requiresConfirmation([actionEvent('FinishAction', 'HIGH')], always)).toBe(false);
    expect(requiresConfirmation([actionEvent('ThinkAction')], always)).toBe(false);
  });

  it('confirms a finish or think action that comes with other actions', () => {
    expect(requiresConfirmation([actionEvent('ThinkAction'), actionEvent('FinishAction')], always)).toBe(true);
    expect(requiresConfirmation([actionEvent('ThinkAction'), actionEvent('TerminalAction')], always)).toBe(true);
  });

  it('confirms a lone ordinary action under AlwaysConfirm, never under NeverConfirm', () => {
    expect(requiresConfirmation([actionEvent('TerminalAction')], always)).toBe(true);
    expect(
      requiresConfirmation([actionEvent('TerminalAction', 'HIGH')], never, { securityAnalyzer: llmRiskAnalyzer }),
    ).toBe(false);
  });

  it('treats every action as UNKNOWN without an analyzer, so ConfirmRisky confirms everything by default', () => {
    const lowRisk = [actionEvent('TerminalAction', 'LOW')];
    expect(requiresConfirmation(lowRisk, risky)).toBe(true);
    expect(requiresConfirmation(lowRisk, riskyKnownOnly)).toBe(false);
    expect(requiresConfirmation([actionEvent('TerminalAction', 'HIGH')], riskyKnownOnly)).toBe(false);
  });

  it('uses the LLM-declared risk with llmRiskAnalyzer', () => {
    const options = { securityAnalyzer: llmRiskAnalyzer };
    expect(requiresConfirmation([actionEvent('TerminalAction', 'LOW')], risky, options)).toBe(false);
    expect(requiresConfirmation([actionEvent('TerminalAction', 'HIGH')], risky, options)).toBe(true);
    expect(requiresConfirmation([actionEvent('TerminalAction', 'UNKNOWN')], risky, options)).toBe(true);
    expect(requiresConfirmation([actionEvent('TerminalAction', 'UNKNOWN')], riskyKnownOnly, options)).toBe(false);
  });

  it('confirms a mixed batch when any one action needs it', () => {
    const options = { securityAnalyzer: llmRiskAnalyzer };
    const batch = [actionEvent('TerminalAction', 'LOW'), actionEvent('TerminalAction', 'MEDIUM')];
    expect(requiresConfirmation(batch, { kind: 'ConfirmRisky', threshold: 'HIGH' }, options)).toBe(false);
    expect(requiresConfirmation(batch, { kind: 'ConfirmRisky', threshold: 'MEDIUM' }, options)).toBe(true);
    const withFinish = [actionEvent('FinishAction', 'LOW'), actionEvent('TerminalAction', 'HIGH')];
    expect(requiresConfirmation(withFinish, risky, options)).toBe(true);
  });

  it('uses a custom analyzer and counts an analyzer failure as HIGH', () => {
    const calls: string[] = [];
    const analyzer = (event: ActionEvent): SecurityRisk => {
      calls.push(event.tool_call_id);
      return 'MEDIUM';
    };
    const batch = [actionEvent('TerminalAction', 'HIGH'), actionEvent('TerminalAction', 'HIGH')];
    expect(requiresConfirmation(batch, risky, { securityAnalyzer: analyzer })).toBe(false);
    expect(calls).toEqual(batch.map((event) => event.tool_call_id));
    const failing = (): SecurityRisk => {
      throw new Error('analyzer offline');
    };
    expect(requiresConfirmation([actionEvent('TerminalAction', 'LOW')], risky, { securityAnalyzer: failing })).toBe(
      true,
    );
  });

  it('asks about an action whose analyzer rating is none of LOW/MEDIUM/HIGH/UNKNOWN, never runs it as safe', () => {
    // A JavaScript analyzer is not held to the type: 'CRITICAL', 'high', undefined must ask, as a throw does.
    const lowOnly: ConfirmationPolicyInput = { kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: false };
    for (const bogus of ['CRITICAL', 'high', undefined, null, 3, '']) {
      const analyzer = () => bogus as unknown as SecurityRisk;
      expect(requiresConfirmation([actionEvent('TerminalAction')], lowOnly, { securityAnalyzer: analyzer })).toBe(true);
    }
    // A valid risk below the threshold still runs unasked.
    const low = () => 'LOW' as const;
    expect(requiresConfirmation([actionEvent('TerminalAction')], lowOnly, { securityAnalyzer: low })).toBe(false);
  });

  it('leaves out non-executable actions', () => {
    expect(requiresConfirmation([actionEvent(null)], always)).toBe(false);
    expect(requiresConfirmation([actionEvent(null), actionEvent('FinishAction')], always)).toBe(false);
  });

  it('rejects an invalid policy', () => {
    expect(() => requiresConfirmation([], { kind: 'Sometimes' } as never)).toThrow(InvalidConfirmationPolicyError);
  });
});

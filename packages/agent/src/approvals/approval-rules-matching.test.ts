// Which calls a rule is about: its tool names exactly (never a part of one), its arguments only when the call has
// them, and a rule whose status is `not-applicable` never decides. Each of these failing open would let an approving
// rule approve calls it never named.
import { createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { type ApprovalRules, approvalRulesSchema, evaluateApprovalRules } from './approval-rules.js';

function call(toolName: string, action: Record<string, unknown>) {
  return createEvent('ActionEvent', {
    thought: [],
    action: { ...action, kind: 'TerminalAction' },
    tool_name: toolName,
    tool_call_id: 'call_1',
    tool_call: { id: 'call_1', name: toolName, arguments: JSON.stringify(action), origin: 'completion' },
    llm_response_id: 'response-1',
  });
}
const rules = (input: unknown[]): ApprovalRules => approvalRulesSchema.parse(input);

describe('the tool a rule names', () => {
  it('is matched as a whole name, given as a string or in a list', () => {
    for (const tool of ['file_editor', ['file_editor']]) {
      const approving = rules([{ tool, status: 'approved' }]);
      expect(evaluateApprovalRules(approving, call('file_editor', {})).status).toBe('approved');
      for (const other of ['file', 'editor', 'file_edito', 'terminal'])
        expect(evaluateApprovalRules(approving, call(other, {})).status, `${JSON.stringify(tool)} → ${other}`).toBe(
          'not-applicable',
        );
    }
  });

  it('does not decide for another tool whose arguments happen to match', () => {
    const approving = rules([{ tool: 'file_editor', arguments: { path: '.*' }, status: 'approved' }]);
    expect(evaluateApprovalRules(approving, call('terminal', { path: 'x' })).status).toBe('not-applicable');
  });
});

describe('a rule whose status is not-applicable', () => {
  it('never decides, so a later rule does', () => {
    const ordered = rules([
      { name: 'skip', tool: 'terminal', status: 'not-applicable' },
      { name: 'deny', tool: 'terminal', status: 'denied' },
    ]);
    expect(evaluateApprovalRules(ordered, call('terminal', { command: 'ls' }))).toMatchObject({
      status: 'denied',
      principal: 'rule:deny',
    });
  });
});

describe('the arguments a rule names', () => {
  it('do not match a call that lacks them, whatever the pattern', () => {
    const approving = rules([{ tool: 'terminal', arguments: { path: '.*' }, status: 'approved' }]);
    expect(evaluateApprovalRules(approving, call('terminal', { command: 'ls' })).status).toBe('not-applicable');
    const anything = rules([{ tool: 'terminal', arguments: { path: 'undefined' }, status: 'denied' }]);
    expect(evaluateApprovalRules(anything, call('terminal', { command: 'ls' })).status).toBe('not-applicable');
  });

  it('do not match a call that lacks them when they are named like an Object member', () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty']) {
      const approving = rules([{ tool: 'terminal', arguments: { [name]: '.*' }, status: 'approved' }]);
      expect(evaluateApprovalRules(approving, call('terminal', { command: 'ls' })).status, name).toBe('not-applicable');
      expect(evaluateApprovalRules(approving, call('terminal', { [name]: 'x' })).status, name).toBe('approved');
    }
  });
});

describe('a denied rule', () => {
  it('tells the model its reason, or names the rule (by name or by position) when it gives none', () => {
    const denying = rules([
      { tool: 'other', status: 'approved' },
      { tool: 'terminal', arguments: { command: 'rm' }, status: 'denied' },
      { name: 'no-curl', tool: 'terminal', arguments: { command: 'curl' }, status: 'denied' },
    ]);
    expect(evaluateApprovalRules(denying, call('terminal', { command: 'rm x' }))).toEqual({
      status: 'denied',
      principal: 'rule:1',
      reason: "Denied by the approval rule '1'.",
    });
    expect(evaluateApprovalRules(denying, call('terminal', { command: 'curl x' }))).toEqual({
      status: 'denied',
      principal: 'rule:no-curl',
      reason: "Denied by the approval rule 'no-curl'.",
    });
  });
});

describe('the rules schema', () => {
  it('refuses empty names, tools, tool lists, reasons and invalid patterns', () => {
    for (const rule of [
      { name: '', tool: 'terminal', status: 'approved' },
      { tool: '', status: 'approved' },
      { tool: [], status: 'approved' },
      { tool: [''], status: 'approved' },
      { tool: 'terminal', status: 'denied', reason: '' },
      { tool: 'terminal', arguments: { command: '(' }, status: 'denied' },
    ])
      expect(approvalRulesSchema.safeParse([rule]).success, JSON.stringify(rule)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { type ApprovalRules, approvalRulesSchema, checkApprovalRules } from '../src/index.js';

// What approvalRulesSchema refuses in a rule besides a blank reason (an empty one is too short, and only that: one
// issue, not a second "blank" one), and what checkApprovalRules gives back for rules it takes.

const safe = { name: 'safe', tool: 'terminal', status: 'approved' } as const;

function issuesOf(rule: Record<string, unknown>) {
  const parsed = approvalRulesSchema.safeParse([rule]);
  expect(parsed.success).toBe(false);
  return parsed.error?.issues.map(({ code, path }) => ({ code, path }));
}

describe('approvalRulesSchema', () => {
  it('refuses an empty reason as too short, with that one issue only', () => {
    expect(issuesOf({ ...safe, status: 'denied', reason: '' })).toEqual([{ code: 'too_small', path: [0, 'reason'] }]);
  });

  it('refuses an empty name, an empty tool name and an empty list of tools', () => {
    expect(issuesOf({ ...safe, name: '' })).toEqual([{ code: 'too_small', path: [0, 'name'] }]);
    for (const tool of ['', [], ['terminal', '']]) {
      expect({ tool, success: approvalRulesSchema.safeParse([{ ...safe, tool }]).success }).toEqual({
        tool,
        success: false,
      });
    }
    expect(approvalRulesSchema.safeParse([{ ...safe, tool: ['terminal', 'file_editor'] }]).success).toBe(true);
  });
});

describe('checkApprovalRules', () => {
  it('gives back the rules it takes, and undefined for none', () => {
    const rules: ApprovalRules = [safe, { tool: '*', status: 'denied', reason: 'not here' }];
    expect(checkApprovalRules(rules)).toBe(rules);
    expect(checkApprovalRules(undefined)).toBeUndefined();
  });
});

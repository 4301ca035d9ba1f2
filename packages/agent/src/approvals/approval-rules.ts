import type { ActionEvent } from '@x/events';
import { z } from 'zod';
import { InvalidApprovalRuleError } from './errors/invalid-approval-rule-error.js';

/** What a rule answers for an action (the statuses of the Vercel AI SDK's tool approval). */
export const approvalStatusSchema = z.enum(['approved', 'denied', 'user-approval', 'not-applicable']);
export type ApprovalStatus = z.infer<typeof approvalStatusSchema>;

const regexSource = z.string().refine(
  (source) => {
    try {
      new RegExp(source);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'not a valid regular expression' },
);

/**
 * Why a rule's blank reason (whitespace only) is refused, as an empty one is: it is the rejection_reason the model is
 * told of a denial (`Action rejected: <reason>`), so blank it would tell nothing, where no reason gives one naming the
 * rule. Refused rather than dropped, as a denial's blank reason in a decision is.
 */
export const BLANK_RULE_REASON =
  'its reason is blank: it is the rejection_reason the model is told ("Action rejected: <reason>"); give one that says why, or none (the default names the rule)';

const ruleReason = z
  .string()
  .min(1, { abort: true })
  .refine((reason) => reason.trim() !== '', { message: BLANK_RULE_REASON });

/**
 * One rule: which tool (a name, several, or `*`), optionally which arguments (argument name → regular expression
 * its value must match; a non-string value is matched as JSON), and the status it answers. An `approved` rule's
 * pattern must match the whole value; the others' anywhere in it (see `evaluateApprovalRules`).
 */
export const approvalRuleSchema = z.strictObject({
  /** Recorded as the decision's principal, `rule:<name>` (default: `rule:<index>`). */
  name: z.string().min(1).optional(),
  tool: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  arguments: z.record(z.string(), regexSource).optional(),
  status: approvalStatusSchema,
  /** For `denied`: what the model is told (default: names the rule). Not blank. */
  reason: ruleReason.optional(),
});
export type ApprovalRule = z.infer<typeof approvalRuleSchema>;

/** Rules in order: the first whose status is not `not-applicable` decides; none → `not-applicable`. */
export const approvalRulesSchema = z.array(approvalRuleSchema);
export type ApprovalRules = z.infer<typeof approvalRulesSchema>;

/**
 * `rules`, or an `InvalidApprovalRuleError` naming the first rule (by name, else index) whose reason is blank: what the
 * schema refuses, for rules given as typed options without being parsed.
 */
export function checkApprovalRules<T extends ApprovalRules | undefined>(rules: T): T {
  for (const [index, rule] of (rules ?? []).entries()) {
    if (typeof rule.reason === 'string' && rule.reason.trim() === '') {
      throw new InvalidApprovalRuleError(rule.name ?? String(index), BLANK_RULE_REASON);
    }
  }
  return rules;
}

export interface RuleVerdict {
  status: ApprovalStatus;
  /** `rule:<name or index>` of the rule that decided; undefined for `not-applicable`. */
  principal?: string;
  reason?: string;
}

/**
 * What the rules answer for one action (pure). Each way a pattern can be misread fails closed: an `approved` rule's
 * pattern must match the whole value (as if between `^(?:` and `)$`), so `ls( -la)?` approves `ls -la` and never
 * `ls -la; rm -rf ~` or `ls` followed by a newline and another command, and an approved address
 * `[^@,\s]+@example\.com` never approves a second, outside one; a `denied` or `user-approval` rule's pattern matches
 * anywhere, so `\brm\b` catches a `rm` wherever it is in the command.
 */
export function evaluateApprovalRules(rules: ApprovalRules, action: ActionEvent): RuleVerdict {
  const args = action.action ?? {};
  for (const [index, rule] of rules.entries()) {
    if (rule.status === 'not-applicable' || !matchesTool(rule, action.tool_name)) continue;
    if (!matchesArguments(rule, args, rule.status === 'approved')) continue;
    const principal = `rule:${rule.name ?? index}`;
    if (rule.status !== 'denied') return { status: rule.status, principal };
    return {
      status: 'denied',
      principal,
      reason: rule.reason ?? `Denied by the approval rule '${rule.name ?? index}'.`,
    };
  }
  return { status: 'not-applicable' };
}

function matchesTool(rule: ApprovalRule, toolName: string): boolean {
  const tools = typeof rule.tool === 'string' ? [rule.tool] : rule.tool;
  return tools.includes('*') || tools.includes(toolName);
}

function matchesArguments(rule: ApprovalRule, args: Readonly<Record<string, unknown>>, whole: boolean): boolean {
  for (const [name, pattern] of Object.entries(rule.arguments ?? {})) {
    // An own key only: `args.constructor` of a call without that argument is Object's, and would match as text.
    const value = Object.hasOwn(args, name) ? args[name] : undefined;
    if (value === undefined) return false;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    // A group, so a top-level alternation (`ls|pwd`) is anchored as a whole, not at one end each.
    if (!new RegExp(whole ? `^(?:${pattern})$` : pattern).test(text)) return false;
  }
  return true;
}

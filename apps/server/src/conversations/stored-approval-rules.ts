import { type ApprovalRules, approvalRulesSchema } from '@x/agent';

/**
 * The approval rules of a conversation's meta.json, as it is resumed. A rule's blank reason (whitespace only) has been
 * refused since; a meta.json written before keeps reading: the blank reason is dropped, so the rule denies with the
 * reason that names it, rather than telling the model nothing, and the conversation stays readable.
 */
export function storedApprovalRules(stored: readonly Record<string, unknown>[]): ApprovalRules {
  return approvalRulesSchema.parse(
    stored.map((rule) => {
      if (typeof rule.reason !== 'string' || rule.reason.trim() !== '') return rule;
      const { reason: _blank, ...rest } = rule;
      return rest;
    }),
  );
}

import type { ActionEvent, SecurityRisk } from '@x/events';
import { type ConfirmationPolicyInput, confirmsRisk, parseConfirmationPolicy } from './confirmation-policy.js';
import type { SecurityAnalyzer } from './security-analyzer.js';

/** Action kinds that never need confirmation when they are the only action of a response. */
const harmlessKinds: ReadonlySet<string> = new Set(['FinishAction', 'ThinkAction']);

export interface RequiresConfirmationOptions {
  /**
   * Rates each action. Without one every action is UNKNOWN, exactly like the reference, so ConfirmRisky with
   * `confirm_unknown: true` (its default) confirms everything; pass `llmRiskAnalyzer` to use the LLM's own rating.
   */
  securityAnalyzer?: SecurityAnalyzer;
}

/**
 * Whether the actions created for one LLM response must wait for the user before running (reference §8.6).
 * Non-executable actions (no `action`) are left out, since they never run. No actions → false; a lone
 * FinishAction or ThinkAction → false; otherwise true when the policy confirms the risk of any action.
 * Throws `InvalidConfirmationPolicyError` for an invalid policy.
 */
export function requiresConfirmation(
  actionEvents: readonly ActionEvent[],
  policy: ConfirmationPolicyInput,
  options: RequiresConfirmationOptions = {},
): boolean {
  const parsed = parseConfirmationPolicy(policy);
  const executable = actionEvents.filter((event) => event.action != null);
  const [first] = executable;
  if (first === undefined) return false;
  if (executable.length === 1 && harmlessKinds.has(first.action?.kind ?? '')) return false;
  return executable.some((event) => confirmsRisk(parsed, riskOf(event, options.securityAnalyzer)));
}

function riskOf(event: ActionEvent, analyzer: SecurityAnalyzer | undefined): SecurityRisk {
  if (analyzer === undefined) return 'UNKNOWN';
  try {
    return analyzer(event);
  } catch {
    return 'HIGH';
  }
}

import type { ActionEvent, SecurityRisk } from '@x/events';

/**
 * Rates the risk of one action before it runs. An analyzer that throws counts as HIGH (reference §8.5), so a
 * broken analyzer errs towards asking the user.
 */
export type SecurityAnalyzer = (action: ActionEvent) => SecurityRisk;

/**
 * The reference's `LLMSecurityAnalyzer`: trusts the risk the LLM declared in the tool call's `security_risk`
 * argument, as recorded on the ActionEvent.
 */
export const llmRiskAnalyzer: SecurityAnalyzer = (action) => action.security_risk;

import { llmRiskAnalyzer, type SecurityAnalyzer } from '../confirmation/security-analyzer.js';

/** What `securityAnalyzer` / `setSecurityAnalyzer` accept: `null` is the same as `'none'` (the reference's None). */
export type SecurityAnalyzerInput = 'llm' | 'none' | SecurityAnalyzer | null;
/** How the setting is persisted (`agent_state.x_security_analyzer`); a function is `custom`. */
export type AnalyzerSetting = 'llm' | 'none' | 'custom';

export function resolveAnalyzer(input: SecurityAnalyzerInput): {
  analyzer: SecurityAnalyzer | undefined;
  setting: AnalyzerSetting;
} {
  if (input === null || input === 'none') return { analyzer: undefined, setting: 'none' };
  if (input === 'llm') return { analyzer: llmRiskAnalyzer, setting: 'llm' };
  return { analyzer: input, setting: 'custom' };
}

/**
 * The analyzer a resumed conversation uses when the caller names none, from base_state.json: ours
 * (`agent_state.x_security_analyzer`; a function cannot be persisted, the LLM analyzer stands in), else
 * the reference's `security_analyzer` (any analyzer → `'llm'`, the one x has built in; absent → `'none'`)
 * when the reference wrote the file; undefined (the default, `'llm'`) for our files from before.
 */
export function persistedAnalyzer(
  file: { agent_state?: Record<string, unknown> | undefined; security_analyzer?: { kind: string } | null | undefined },
  writtenByUs: boolean,
): 'llm' | 'none' | undefined {
  const ours = file.agent_state?.x_security_analyzer;
  if (ours === 'none') return 'none';
  if (ours === 'llm' || ours === 'custom') return 'llm';
  if (writtenByUs) return undefined;
  return file.security_analyzer?.kind === undefined ? 'none' : 'llm';
}

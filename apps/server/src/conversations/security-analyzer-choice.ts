import { clientText } from '../internal/client-text.js';
import { InvalidRequestError } from './errors/invalid-request-error.js';

/**
 * The analysis a conversation's `security_analyzer` (the reference's JSON) asks for: `{"kind": "LLMSecurityAnalyzer"}`
 * trusts the risk the model declares, `null` turns analysis off; other kinds are refused (422).
 */
export function securityAnalysisOf(analyzer: { kind: string } | null): 'llm' | 'none' {
  if (analyzer === null) return 'none';
  if (analyzer.kind === 'LLMSecurityAnalyzer') return 'llm';
  throw new InvalidRequestError(
    `security_analyzer.kind '${clientText(analyzer.kind)}' is not supported (supported: LLMSecurityAnalyzer, or null for none)`,
    { statusCode: 422, loc: ['body', 'security_analyzer', 'kind'] },
  );
}

import { PrincipalNotAllowedError } from '@x/agent';

/**
 * The agent's refusal of a principal outside `approvalDeciders`, with the HTTP status the faces that map errors by
 * `statusCode` (OpenAI's, MCP's) answer with: 403, as the REST routes do, not a 500.
 */
export class DeciderNotAllowedError extends PrincipalNotAllowedError {
  readonly statusCode = 403;
}

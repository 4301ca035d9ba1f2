import { AgentError } from '../../errors.js';

/** The principal may not decide on this conversation's actions (e.g. the server's `approvalDeciders`). */
export class PrincipalNotAllowedError extends AgentError {
  readonly principal: string;

  constructor(principal: string) {
    super('principal_not_allowed', `'${principal}' is not allowed to decide on pending actions.`);
    this.principal = principal;
  }
}

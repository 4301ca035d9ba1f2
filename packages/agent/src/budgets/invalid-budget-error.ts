import { AgentError } from '../errors.js';

/** A budget that is not a number of dollars ≥ 0 (negative, NaN, a string, unknown keys). */
export class InvalidBudgetError extends AgentError {
  constructor(message: string) {
    super('invalid_budget', message);
  }
}

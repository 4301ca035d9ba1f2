import type { ChainProblem } from '../chain/verify-report.js';
import { StoreError } from '../errors.js';

/** The chain does not verify, so its head is not signed. `problem` is what `verifyEventChain` found first. */
export class ChainTamperedError extends StoreError {
  declare readonly code: 'chain_tampered';
  readonly problem: ChainProblem;

  constructor(problem: ChainProblem) {
    super('chain_tampered', `The event chain does not verify: ${problem.message}`);
    this.problem = problem;
  }
}

import type { Condensation, View } from '@x/events';
import { type Condenser, type CondenserContext, isCondensation } from './condenser.js';

/**
 * Runs condensers in order, each on the previous one's View, and stops at the first Condensation
 * (reference `PipelineCondenser`).
 */
export class PipelineCondenser implements Condenser {
  readonly condensers: readonly Condenser[];

  constructor(condensers: readonly Condenser[]) {
    this.condensers = [...condensers];
  }

  async condense(view: View, context: CondenserContext = {}): Promise<View | Condensation> {
    let current = view;
    for (const condenser of this.condensers) {
      const result = await condenser.condense(current, context);
      if (isCondensation(result)) return result;
      current = result;
    }
    return current;
  }

  handlesCondensationRequests(): boolean {
    return this.condensers.some((condenser) => condenser.handlesCondensationRequests());
  }

  usageIds(): readonly string[] {
    return this.condensers.flatMap((condenser) => condenser.usageIds?.() ?? []);
  }

  toJSON(): Record<string, unknown> {
    return { condensers: this.condensers.map((condenser) => condenser.toJSON()), kind: 'PipelineCondenser' };
  }
}

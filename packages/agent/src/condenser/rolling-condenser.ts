import type { Condensation, View } from '@x/events';
import type { Condenser, CondenserContext } from './condenser.js';
import { NoCondensationAvailableError } from './no-condensation-available-error.js';

/**
 * How urgently a view must shrink. SOFT: condensing would be nice (the view is long) and the view may
 * be sent as is if no condensation is possible. HARD: the view cannot be sent (context overflow or an
 * explicit request), so a failed condensation falls back to a hard context reset.
 */
export type CondensationRequirement = 'soft' | 'hard';

/**
 * Base of condensers that keep a view bounded by replacing part of it (reference `RollingCondenser`).
 * Subclasses say when (`condensationRequirement`) and how (`getCondensation`, which throws
 * `NoCondensationAvailableError` when it cannot), and may offer a last-resort `hardContextReset`.
 */
export abstract class RollingCondenser implements Condenser {
  abstract condensationRequirement(view: View, context: CondenserContext): CondensationRequirement | null;

  abstract getCondensation(view: View, context: CondenserContext): Promise<Condensation>;

  /** A condensation of last resort for a HARD requirement; null when there is none (the default). */
  async hardContextReset(_view: View, _context: CondenserContext): Promise<Condensation | null> {
    return null;
  }

  async condense(view: View, context: CondenserContext = {}): Promise<View | Condensation> {
    const requirement = this.condensationRequirement(view, context);
    if (requirement === null) return view;
    try {
      return await this.getCondensation(view, context);
    } catch (error) {
      if (!NoCondensationAvailableError.isInstance(error)) throw error;
      if (requirement === 'soft') return view;
      const reset = await this.hardContextReset(view, context);
      if (reset !== null) return reset;
      throw error;
    }
  }

  handlesCondensationRequests(): boolean {
    return false;
  }

  abstract toJSON(): Record<string, unknown>;
}

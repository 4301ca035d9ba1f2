import type { View } from '@x/events';
import type { Condenser } from './condenser.js';

/** Sends the whole view every time (reference `NoOpCondenser`). */
export class NoOpCondenser implements Condenser {
  async condense(view: View): Promise<View> {
    return view;
  }

  handlesCondensationRequests(): boolean {
    return false;
  }

  toJSON(): Record<string, unknown> {
    return { kind: 'NoOpCondenser' };
  }
}

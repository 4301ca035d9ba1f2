import { type Condensation, createEvent, type View } from '@x/events';
import { describe, expect, it } from 'vitest';
import { messageEvents, viewOf } from './__fixtures__/condenser-fixtures.js';
import { NoCondensationAvailableError } from './no-condensation-available-error.js';
import { type CondensationRequirement, RollingCondenser } from './rolling-condenser.js';

/** The smallest RollingCondenser: a fixed requirement and a fixed outcome, with the base class's defaults. */
class ScriptedRollingCondenser extends RollingCondenser {
  readonly calls: string[] = [];

  constructor(
    readonly requirement: CondensationRequirement | null,
    readonly outcome: () => Condensation,
  ) {
    super();
  }

  condensationRequirement(): CondensationRequirement | null {
    return this.requirement;
  }

  async getCondensation(): Promise<Condensation> {
    this.calls.push('getCondensation');
    return this.outcome();
  }

  toJSON(): Record<string, unknown> {
    return { kind: 'ScriptedRollingCondenser' };
  }
}

const unavailable = () => {
  throw new NoCondensationAvailableError('nothing to cut');
};

describe('RollingCondenser defaults', () => {
  it('handles no condensation requests unless a subclass says so', () => {
    expect(new ScriptedRollingCondenser(null, unavailable).handlesCondensationRequests()).toBe(false);
  });

  it('returns the view without asking for a condensation when none is required', async () => {
    const condenser = new ScriptedRollingCondenser(null, unavailable);
    const view: View = viewOf(messageEvents(3));
    expect(await condenser.condense(view)).toBe(view);
    expect(condenser.calls).toEqual([]);
  });

  it('returns the condensation it computed', async () => {
    const made = createEvent('Condensation', { forgotten_event_ids: [], llm_response_id: 'r' });
    expect(await new ScriptedRollingCondenser('soft', () => made).condense(viewOf(messageEvents(3)))).toBe(made);
  });

  it('re-throws a HARD failure when it has no hard context reset', async () => {
    const condenser = new ScriptedRollingCondenser('hard', unavailable);
    await expect(condenser.condense(viewOf(messageEvents(3)))).rejects.toThrow('nothing to cut');
  });

  it('re-throws other errors, even for a SOFT requirement', async () => {
    const condenser = new ScriptedRollingCondenser('soft', () => {
      throw new TypeError('a bug');
    });
    await expect(condenser.condense(viewOf(messageEvents(3)))).rejects.toThrow(TypeError);
  });
});

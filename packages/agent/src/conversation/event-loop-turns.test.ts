import { describe, expect, it } from 'vitest';
import { EventLoopTurns, YIELD_AFTER_MS, YIELD_AFTER_STEPS } from './event-loop-turns.js';

/** Whether `between()` let the event loop turn: a setImmediate queued before it has run when it resolves. */
async function turned(turns: EventLoopTurns): Promise<boolean> {
  let ran = false;
  const immediate = setImmediate(() => {
    ran = true;
  });
  await turns.between();
  clearImmediate(immediate);
  return ran;
}

describe('EventLoopTurns', () => {
  it('turns the event loop every YIELD_AFTER_STEPS steps while the clock stands still', async () => {
    const turns = new EventLoopTurns(() => 0);
    const seen: boolean[] = [];
    for (let step = 0; step < 2 * YIELD_AFTER_STEPS; step++) seen.push(await turned(turns));
    const expected = seen.map((_, index) => (index + 1) % YIELD_AFTER_STEPS === 0);
    expect(seen).toEqual(expected);
  });

  it('turns it sooner once YIELD_AFTER_MS have passed since the last turn, and counts again from there', async () => {
    let now = 1000;
    const turns = new EventLoopTurns(() => now);
    expect(await turned(turns)).toBe(false);
    now += YIELD_AFTER_MS - 0.5;
    expect(await turned(turns)).toBe(false);
    now += 0.5;
    expect(await turned(turns)).toBe(true);
    now += YIELD_AFTER_MS - 0.5;
    expect(await turned(turns)).toBe(false);
  });
});

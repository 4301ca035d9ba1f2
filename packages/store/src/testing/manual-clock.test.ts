import { describe, expect, it } from 'vitest';
import { advanceUntilSettled, createManualClock } from './manual-clock.js';

describe('createManualClock', () => {
  it('moves only when advanced, firing waits and timers in time order', async () => {
    const clock = createManualClock(100);
    const fired: string[] = [];
    void clock.sleep(50).then(() => fired.push(`sleep@${clock.now()}`));
    const stop = clock.every(20, () => {
      fired.push(`tick@${clock.now()}`);
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(fired).toEqual([]);
    expect(clock.now()).toBe(100);
    await clock.advance(65);
    expect(fired).toEqual(['tick@120', 'tick@140', 'sleep@150', 'tick@160']);
    expect(clock.now()).toBe(165);
    stop();
    await clock.advance(100);
    expect(fired).toHaveLength(4);
    expect(clock.pending).toBe(0);
  });

  it('awaits a tick that returns a promise before time moves past it', async () => {
    const clock = createManualClock();
    let renewed = false;
    clock.every(10, async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      renewed = true;
    });
    let sawRenewal: boolean | undefined;
    void clock.sleep(15).then(() => {
      sawRenewal = renewed;
    });
    await clock.advance(15);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sawRenewal).toBe(true);
  });

  it('rejects a wait with the abort reason, and settles a promise by advancing step by step', async () => {
    const clock = createManualClock();
    const controller = new AbortController();
    const waiting = clock.sleep(1_000, controller.signal);
    controller.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
    expect(clock.pending).toBe(0);
    const late = clock.sleep(10_000).then(() => clock.now());
    expect(await advanceUntilSettled(clock, late, 1_000)).toBe(10_000);
  });
});

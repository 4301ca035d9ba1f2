import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('moves time only while no file read or write is out, however long one takes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'x-manual-clock-'));
    try {
      const clock = createManualClock();
      const seen: [number, number][] = [];
      // A participant that wakes, spends many event loop turns on file I/O, and sleeps again: its clock must read
      // the same before and after, as a lease holder's does around its heartbeat write.
      const participant = (async () => {
        for (let round = 0; round < 5; round++) {
          await clock.sleep(10);
          const before = clock.now();
          for (let i = 0; i < 20; i++) {
            await writeFile(join(dir, `f${i}`), 'x'.repeat(64 * 1024));
            await readFile(join(dir, `f${i}`));
          }
          seen.push([before, clock.now()]);
        }
      })();
      await advanceUntilSettled(clock, participant, 100);
      expect(seen).toHaveLength(5);
      for (const [before, after] of seen) expect(after).toBe(before);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

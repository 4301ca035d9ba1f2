import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemLeaseClock } from './lease-clock.js';

/** How many ref'd timers keep this process alive right now. */
function timersKeepingAlive(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
}

/** Lets every callback already due (promise reactions, immediates) run, without waiting on real time. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
});

describe('systemLeaseClock', () => {
  it('sleeps until its time is up, and a sleep stops with the reason its signal aborts with', async () => {
    const controller = new AbortController();
    let settled = false;
    // A minute: far longer than this test takes, so it is still pending below however slow the machine is.
    const long = systemLeaseClock.sleep(60_000, controller.signal);
    long.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    await turn();
    await turn();
    expect(settled).toBe(false);
    controller.abort(new Error('stopped'));
    await expect(long).rejects.toThrow('stopped');
  });

  it('rejects at once when its signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(systemLeaseClock.sleep(60_000, controller.signal)).rejects.toThrow('gone');
  });

  it('ticks every interval until stopped', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let ticks = 0;
    const stop = systemLeaseClock.every(100, () => {
      ticks++;
    });
    vi.advanceTimersByTime(350);
    expect(ticks).toBe(3);
    stop();
    vi.advanceTimersByTime(1_000);
    expect(ticks).toBe(3);
  });

  it('never keeps the process alive with its heartbeat timer', () => {
    const before = timersKeepingAlive();
    const stop = systemLeaseClock.every(60_000, () => undefined);
    try {
      expect(timersKeepingAlive()).toBe(before);
    } finally {
      stop();
    }
  });
});

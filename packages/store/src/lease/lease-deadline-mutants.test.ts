import { describe, expect, it } from 'vitest';
import { createManualClock } from '../testing/manual-clock.js';
import { watchLeaseDeadline } from './lease-deadline.js';

// Both lease backends abort a holder's signal through this watch: firing even a millisecond early ends a lease
// its holder still owns (a fractional `performance.now()` makes such a sliver as likely as any other).

describe('watchLeaseDeadline', () => {
  for (const ahead of [1, 0.5]) {
    it(`does not call back while the deadline is still ${ahead} ms ahead, and does once it is reached`, async () => {
      const clock = createManualClock(1_000);
      let passed = 0;
      const stop = watchLeaseDeadline(
        clock,
        () => 1_000 + ahead,
        () => {
          passed++;
        },
      );
      expect(passed).toBe(0);
      await clock.advance(ahead / 2);
      expect(passed).toBe(0);
      await clock.advance(1);
      expect(passed).toBe(1);
      stop();
    });
  }

  it('re-arms when the deadline moved on, to a sliver ahead, by the time the timer fires', async () => {
    const clock = createManualClock();
    let deadline = 100;
    let passed = 0;
    const stop = watchLeaseDeadline(
      clock,
      () => deadline,
      () => {
        passed++;
      },
    );
    // A renewal just before the timer fires: the deadline is now 1 ms past the moment it fires.
    await clock.advance(99);
    deadline = 101;
    await clock.advance(1);
    expect(passed).toBe(0);
    await clock.advance(1);
    expect(passed).toBe(1);
    stop();
  });

  it('calls back at once when the deadline has already passed, and never when stopped first', async () => {
    const clock = createManualClock(500);
    let passed = 0;
    watchLeaseDeadline(
      clock,
      () => 500,
      () => {
        passed++;
      },
    );
    expect(passed).toBe(1);
    let stoppedPassed = 0;
    const stop = watchLeaseDeadline(
      clock,
      () => 510,
      () => {
        stoppedPassed++;
      },
    );
    stop();
    await clock.advance(100);
    expect(stoppedPassed).toBe(0);
    expect(clock.pending).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { retryOnConnectionFailure } from './retry.js';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/** Work that fails with a connection error `failures` times, then answers. */
function flaky(failures: number): () => Promise<string> {
  let left = failures;
  return async () => {
    if (left-- > 0) throw refused();
    return 'ok';
  };
}

describe('retryOnConnectionFailure', () => {
  it('waits a random part of a doubling cap (full jitter), capped at 1 s', async () => {
    const waits: number[] = [];
    const result = await retryOnConnectionFailure(flaky(7), 60_000, {
      random: () => 0.999,
      sleep: async (ms) => waits.push(ms),
    });
    expect(result).toBe('ok');
    expect(waits).toEqual([49, 99, 199, 399, 799, 999, 999]);
  });

  it('spreads the retries of replicas that fail together (no lockstep)', async () => {
    const schedules: number[][] = [];
    for (const seed of [0.1, 0.5, 0.9]) {
      const waits: number[] = [];
      await retryOnConnectionFailure(flaky(3), 60_000, { random: () => seed, sleep: async (ms) => waits.push(ms) });
      schedules.push(waits);
    }
    expect(schedules).toEqual([
      [5, 10, 20],
      [25, 50, 100],
      [45, 90, 180],
    ]);
    // With the default random source two runs are not expected to share a schedule.
    const runs = await Promise.all(
      [0, 1].map(async () => {
        const waits: number[] = [];
        await retryOnConnectionFailure(flaky(5), 60_000, { sleep: async (ms) => waits.push(ms) });
        return waits;
      }),
    );
    expect(runs[0]).not.toEqual(runs[1]);
  });

  it('does not retry an answer of the server, nor past the deadline', async () => {
    const answered = Object.assign(new Error('duplicate key'), { code: '23505' });
    let calls = 0;
    await expect(
      retryOnConnectionFailure(
        async () => {
          calls += 1;
          throw answered;
        },
        60_000,
        { sleep: async () => undefined },
      ),
    ).rejects.toBe(answered);
    expect(calls).toBe(1);
    await expect(
      retryOnConnectionFailure(flaky(100), 0, { random: () => 0.5, sleep: async () => undefined }),
    ).rejects.toThrow('ECONNREFUSED');
  });
});

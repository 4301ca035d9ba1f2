import { describe, expect, it } from 'vitest';
import { readMany } from './read-many.js';

/** A read whose promises the test settles one by one, recording how many are in flight at once. */
function gatedReads() {
  const pending: Array<{ index: number; resolve: (value: string) => void }> = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const started: number[] = [];
  return {
    started,
    pending,
    mostInFlight: () => mostInFlight,
    read: (index: number) =>
      new Promise<string>((resolve) => {
        started.push(index);
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        pending.push({
          index,
          resolve: (value) => {
            inFlight--;
            resolve(value);
          },
        });
      }),
  };
}

/** Lets queued promise callbacks run (setImmediate comes after every microtask already queued). */
const drain = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('readMany', () => {
  it('returns the results of [start, end) in index order, whatever order the reads finish in', async () => {
    const gate = gatedReads();
    const result = readMany({ start: 5, end: 9, concurrency: 4, read: gate.read });
    await drain();
    expect(gate.started).toEqual([5, 6, 7, 8]);
    for (const entry of [...gate.pending].reverse()) entry.resolve(`value ${entry.index}`);
    expect(await result).toEqual(['value 5', 'value 6', 'value 7', 'value 8']);
  });

  it('keeps at most `concurrency` reads in flight and starts the next as soon as one finishes', async () => {
    const gate = gatedReads();
    const result = readMany({ start: 0, end: 7, concurrency: 3, read: gate.read });
    await drain();
    expect(gate.started).toEqual([0, 1, 2]);
    gate.pending.shift()!.resolve('a');
    await drain();
    expect(gate.started).toEqual([0, 1, 2, 3]);
    while (gate.pending.length > 0) {
      gate.pending.shift()!.resolve('b');
      await drain();
    }
    expect(await result).toHaveLength(7);
    expect(gate.started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(gate.mostInFlight()).toBe(3);
  });

  it('reads each index once with more workers allowed than there are indices', async () => {
    const reads: number[] = [];
    const result = await readMany({
      start: 2,
      end: 4,
      concurrency: 32,
      read: async (index) => {
        reads.push(index);
        return index * 10;
      },
    });
    expect(result).toEqual([20, 30]);
    expect(reads).toEqual([2, 3]);
  });

  it('gives an empty array for an empty or reversed range without reading', async () => {
    const reads: number[] = [];
    const read = async (index: number) => {
      reads.push(index);
      return index;
    };
    expect(await readMany({ start: 3, end: 3, concurrency: 4, read })).toEqual([]);
    expect(await readMany({ start: 5, end: 2, concurrency: 4, read })).toEqual([]);
    expect(reads).toEqual([]);
  });

  it('rejects with the first failed read', async () => {
    const failure = new Error('unreadable 3');
    const outcome = readMany({
      start: 0,
      end: 6,
      concurrency: 2,
      read: async (index) => {
        if (index === 3) throw failure;
        return index;
      },
    });
    await expect(outcome).rejects.toBe(failure);
  });

  it('lets other work run during a long range of reads that complete at once', async () => {
    const total = 2000;
    let done = 0;
    const doneWhenOtherWorkRan: number[] = [];
    const otherWork = () => {
      doneWhenOtherWorkRan.push(done);
      if (done < total) setImmediate(otherWork);
    };
    setImmediate(otherWork);
    const result = await readMany({
      start: 0,
      end: total,
      concurrency: 1,
      read: async (index) => {
        done++;
        return index;
      },
    });
    expect(result).toHaveLength(total);
    expect(result[total - 1]).toBe(total - 1);
    // Without yielding, the other work would first run after the last read.
    const during = doneWhenOtherWorkRan.filter((count) => count < total);
    expect(during.length).toBeGreaterThan(1);
    // Yet not after every read: each turn of the loop costs far more than a read that completes at once.
    expect(during.length).toBeLessThanOrEqual(total / 100);
    // It is let in regularly (every few hundred reads), not only once.
    expect(Math.max(...during.slice(1).map((count, i) => count - during[i]!))).toBeLessThanOrEqual(512);
  });
});

import { describe, expect, it } from 'vitest';
import { InvalidStoreOptionsError } from '../errors/invalid-store-options-error.js';
import { LeaseLostError } from '../errors/lease-lost-error.js';
import type { FileStore } from '../file-store.js';
import { createMemoryFileStore } from '../memory-file-store.js';
import { createManualClock } from '../testing/manual-clock.js';
import { FileStoreLeases } from './file-store-leases.js';

const TTL = 300;

describe('FileStoreLeases renew', () => {
  it('answers false for a renewal whose beat landed after the lease was lost, well before its deadline', async () => {
    const shared = createMemoryFileStore();
    let entered: () => void = () => undefined;
    const beatStarted = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    // Beats wait at the gate: a renewal under way while the lease is lost.
    const store: FileStore = {
      ...shared,
      write: async (path, data) => {
        if (path.includes('/beat-')) {
          entered();
          await gate;
        }
        return shared.write(path, data);
      },
    };
    const lease = await new FileStoreLeases(store, { owner: 'a', ttlMs: TTL, clock: createManualClock() }).acquire(
      'c1',
    );
    const renewal = lease.renew();
    await beatStarted;
    // Generation 2 appears (another owner took over), and the holder learns it while its beat is out.
    expect(await shared.writeIfAbsent('.leases/c1/gen-0000000002.json', '{"owner":"b"}')).toBe(true);
    await expect(lease.assertHeld()).rejects.toBeInstanceOf(LeaseLostError);
    expect(lease.signal.aborted).toBe(true);
    open();
    expect(await renewal).toBe(false);
    expect(await lease.renew()).toBe(false);
  });

  it('refuses a wait that is not a number of ms at least 0, instead of waiting forever', async () => {
    const store = createMemoryFileStore();
    const clock = createManualClock();
    await new FileStoreLeases(store, { owner: 'a', ttlMs: TTL, clock }).acquire('c1');
    const contender = new FileStoreLeases(store, { owner: 'b', ttlMs: TTL, clock });
    for (const waitMs of [Number.NaN, -1]) {
      await expect(contender.acquire('c1', { waitMs }), `waitMs ${waitMs}`).rejects.toThrow(/waitMs/);
      await expect(contender.acquire('c1', { waitMs }), `waitMs ${waitMs}`).rejects.toBeInstanceOf(
        InvalidStoreOptionsError,
      );
    }
  });
});

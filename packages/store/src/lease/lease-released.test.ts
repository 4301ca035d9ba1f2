// A released lease is no longer its holder's: the next owner may take it at once, so a fenced write checked after
// the release would race the next owner's first one. `assertHeld` refuses from the release on.
import { describe, expect, it } from 'vitest';
import { userMessageEvent } from '../../test/helpers/events.js';
import { LeaseLostError } from '../errors/lease-lost-error.js';
import { EventLog } from '../event-log.js';
import { createMemoryFileStore } from '../memory-file-store.js';
import { createManualClock } from '../testing/manual-clock.js';
import { fenceEventLog } from './fenced-event-log.js';
import { FileStoreLeases } from './file-store-leases.js';

describe('a released file-store lease', () => {
  it('refuses assertHeld, and the fenced log refuses appends, from the release on', async () => {
    const store = createMemoryFileStore();
    const clock = createManualClock();
    const leases = new FileStoreLeases(store, { owner: 'a', ttlMs: 200, clock });
    const lease = await leases.acquire('conversation');
    const log = fenceEventLog(await EventLog.open(store, { dir: 'conversation/events' }), lease);
    await lease.assertHeld();
    await log.append(userMessageEvent('before the release'));

    await lease.release();
    await expect(lease.assertHeld()).rejects.toBeInstanceOf(LeaseLostError);
    await expect(log.append(userMessageEvent('after the release'))).rejects.toBeInstanceOf(LeaseLostError);
    expect(log.length).toBe(1);

    // The next owner takes it at once and writes.
    const next = await new FileStoreLeases(store, { owner: 'b', ttlMs: 200, clock }).acquire('conversation');
    expect([next.generation, next.previous]).toEqual([lease.generation + 1, 'released']);
    await next.assertHeld();
  });
});

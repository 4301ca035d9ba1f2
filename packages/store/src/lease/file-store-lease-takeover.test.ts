import { describe, expect, it } from 'vitest';
import { LeaseLostError } from '../errors/lease-lost-error.js';
import { createMemoryFileStore } from '../memory-file-store.js';
import { createManualClock } from '../testing/manual-clock.js';
import { createFileStoreLeases } from './file-store-leases.js';

// A holder whose lease another owner took over (its heartbeat was seen standing still) must learn it at its
// next renewal, not only at its next fenced append. The takeover is the contender's create of generation N+1,
// written here directly so no heartbeat has to be watched standing still for a ttl.

describe('a file-store lease taken over by another owner', () => {
  it('fails to renew, aborts its signal with LeaseLostError and refuses assertHeld', async () => {
    const store = createMemoryFileStore();
    const leases = createFileStoreLeases(store, { owner: 'a', ttlMs: 60_000 });
    const lease = await leases.acquire('conversation-1');
    expect(await lease.renew()).toBe(true);
    expect(lease.signal.aborted).toBe(false);

    expect(await store.writeIfAbsent('.leases/conversation-1/gen-0000000002.json', '{"owner":"b"}')).toBe(true);
    expect(await lease.renew()).toBe(false);
    expect(lease.signal.aborted).toBe(true);
    expect(LeaseLostError.isInstance(lease.signal.reason)).toBe(true);
    expect(lease.signal.reason).toMatchObject({ leaseKey: 'conversation-1', generation: 1 });
    expect(LeaseLostError.isInstance(await lease.assertHeld().catch((caught: unknown) => caught))).toBe(true);
    // Its release does not free the new owner's generation.
    await lease.release();
    expect(await store.exists('.leases/conversation-1/released-0000000002.json')).toBe(false);
  });

  it('aborts its signal when assertHeld finds the takeover, before any heartbeat', async () => {
    const store = createMemoryFileStore();
    const lease = await createFileStoreLeases(store, { owner: 'a', ttlMs: 150, clock: createManualClock() }).acquire(
      'conversation-4',
    );
    await store.writeIfAbsent('.leases/conversation-4/gen-0000000002.json', '{"owner":"b"}');
    await expect(lease.assertHeld()).rejects.toBeInstanceOf(LeaseLostError);
    expect(lease.signal.aborted).toBe(true);
  });

  it('notices the takeover at its next heartbeat, without being asked', async () => {
    const store = createMemoryFileStore();
    const clock = createManualClock();
    const lease = await createFileStoreLeases(store, { owner: 'a', ttlMs: 150, clock }).acquire('conversation-2');
    await store.writeIfAbsent('.leases/conversation-2/gen-0000000002.json', '{"owner":"b"}');
    expect(lease.signal.aborted).toBe(false);
    // The next heartbeat, a third of the ttl on.
    await clock.advance(50);
    expect(lease.signal.aborted).toBe(true);
    expect(LeaseLostError.isInstance(lease.signal.reason)).toBe(true);
    // Its heartbeat timer is gone with it: a server that loses many leases leaks no timers.
    expect(clock.pending).toBe(0);
    // No heartbeat of the lost generation after it noticed.
    const beat = await store.read('.leases/conversation-2/beat-0000000001.json').catch(() => '');
    await lease.renew();
    expect(await store.read('.leases/conversation-2/beat-0000000001.json').catch(() => '')).toBe(beat);
  });

  it('keeps renewing while nobody took it over, and renew is false after its own release', async () => {
    const store = createMemoryFileStore();
    const lease = await createFileStoreLeases(store, { owner: 'a', ttlMs: 60_000 }).acquire('conversation-3');
    expect(await lease.renew()).toBe(true);
    expect(JSON.parse(await store.read('.leases/conversation-3/beat-0000000001.json'))).toMatchObject({
      owner: 'a',
      beat: 1,
    });
    expect(await lease.renew()).toBe(true);
    expect(JSON.parse(await store.read('.leases/conversation-3/beat-0000000001.json')).beat).toBe(2);
    await lease.assertHeld();
    await lease.release();
    expect(await lease.renew()).toBe(false);
    expect(await store.exists('.leases/conversation-3/released-0000000001.json')).toBe(true);
  });
});

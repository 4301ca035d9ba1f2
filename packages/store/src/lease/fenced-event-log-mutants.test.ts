import { describe, expect, it } from 'vitest';
import { messageText, userMessageEvent } from '../../test/helpers/events.js';
import { LeaseLostError } from '../errors/lease-lost-error.js';
import type { EventLogAppendOptions, EventLogLike } from '../event-log/event-log-like.js';
import { EventLog } from '../event-log.js';
import { createMemoryFileStore } from '../memory-file-store.js';
import { fenceEventLog } from './fenced-event-log.js';
import type { Lease } from './lease.js';

/** A lease whose own check always passes: it models a takeover that lands after the holder's last check. */
function leaseThatLooksHeld(generation: number): Lease & { checks: number } {
  const lease = {
    key: 'conversation',
    generation,
    owner: 'a',
    previous: 'none' as const,
    signal: new AbortController().signal,
    checks: 0,
    async assertHeld() {
      lease.checks++;
    },
    renew: async () => true,
    release: async () => undefined,
  };
  return lease;
}

/**
 * `log` as a database-backed log sees it: `fencesAppends`, and an append carrying a stale fence is refused in
 * the same write (here: against `current()`, the generation the lease table holds).
 */
function fencingInsideTheWrite(log: EventLogLike, current: () => number): EventLogLike {
  const append = async (event: Parameters<EventLogLike['append']>[0], options?: EventLogAppendOptions) => {
    const fence = options?.fence;
    if (fence !== undefined && fence.generation !== current())
      throw new LeaseLostError({ leaseKey: fence.key, generation: fence.generation });
    return log.append(event);
  };
  return new Proxy(log, {
    get(target, property) {
      if (property === 'fencesAppends') return true;
      if (property === 'append') return append;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('fenceEventLog', () => {
  it('reads like the log it wraps: its length, and iterating it yields every event from the first', async () => {
    const log = await EventLog.open(createMemoryFileStore(), { dir: 'events' });
    const fenced = fenceEventLog(log, leaseThatLooksHeld(1));
    expect(fenced.length).toBe(0);
    await fenced.append(userMessageEvent('one'));
    await fenced.append(userMessageEvent('two'));
    expect(fenced.length).toBe(2);
    expect(fenced.length).toBe(log.length);
    const texts: string[] = [];
    for await (const event of fenced) texts.push(messageText(event));
    expect(texts).toEqual(['one', 'two']);
    // An EventLog does not fence inside its writes: its callers must check the lease themselves.
    expect(fenced.fencesAppends).toBeFalsy();
  });

  it('checks the lease before each append to a log that does not fence, and appends nothing once it is lost', async () => {
    const log = await EventLog.open(createMemoryFileStore(), { dir: 'events' });
    const lease = leaseThatLooksHeld(1);
    const fenced = fenceEventLog(log, lease);
    expect(await fenced.append(userMessageEvent('held'))).toBe(0);
    expect(lease.checks).toBe(1);
    lease.assertHeld = async () => {
      throw new LeaseLostError({ leaseKey: lease.key, generation: lease.generation });
    };
    await expect(fenced.append(userMessageEvent('lost'))).rejects.toBeInstanceOf(LeaseLostError);
    expect(log.length).toBe(1);
  });

  it('hands the lease to a log that fences inside its write, so a takeover after the last check is refused', async () => {
    let generation = 1;
    const inner = fencingInsideTheWrite(
      await EventLog.open(createMemoryFileStore(), { dir: 'events' }),
      () => generation,
    );
    const lease = leaseThatLooksHeld(1);
    const fenced = fenceEventLog(inner, lease);
    // Callers (a run's ownership) skip their own check when the log says it fences.
    expect(fenced.fencesAppends).toBe(true);
    expect(await fenced.append(userMessageEvent('held'))).toBe(0);
    generation = 2;
    await expect(fenced.append(userMessageEvent('stale'))).rejects.toBeInstanceOf(LeaseLostError);
    expect(inner.length).toBe(1);
    // The check in the write replaces the racy read before it: no separate round trip.
    expect(lease.checks).toBe(0);
  });
});

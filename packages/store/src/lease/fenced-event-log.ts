import type { KeyObject } from 'node:crypto';
import type { AnyEvent } from '@x/events';
import type { EventLogAppendOptions, EventLogLike } from '../event-log/event-log-like.js';
import type { LogEntry, SubscribeOptions } from '../event-log/subscription.js';
import type { Lease } from './lease.js';

/**
 * `log`, with every append refused (`LeaseLostError`) once `lease` has been taken over. On file
 * stores the check is a read before the write, so an append already past it when a takeover lands
 * still commits; the new owner starts only after a whole ttl without heartbeats, which a live
 * holder never lets pass. Logs with `fencesAppends` (PostgreSQL) get the lease as the append's `fence`
 * instead and check it in the same transaction as the insert, so no stale append can commit.
 */
export function fenceEventLog(log: EventLogLike, lease: Lease): EventLogLike {
  return {
    get length() {
      return log.length;
    },
    indexOf: (id: string) => log.indexOf(id),
    idAt: (index: number) => log.idAt(index),
    get fencesAppends() {
      return log.fencesAppends;
    },
    get gap() {
      return log.gap;
    },
    async append(event: AnyEvent, options?: EventLogAppendOptions) {
      // A log that checks the fence inside its write needs no separate (racy) check first.
      if (log.fencesAppends === true) return log.append(event, { ...options, fence: lease });
      await lease.assertHeld();
      return log.append(event, options);
    },
    get: (index: number) => log.get(index),
    getById: (id: string) => log.getById(id),
    range: (start: number, end?: number) => log.range(start, end),
    iterate: (from?: number) => log.iterate(from),
    [Symbol.asyncIterator]: () => log.iterate(0),
    refresh: () => log.refresh(),
    subscribe: (fromIndex?: number, options?: SubscribeOptions) => log.subscribe(fromIndex, options),
    listen: (
      fromIndex: number,
      listener: (entry: LogEntry) => void | Promise<void>,
      options?: SubscribeOptions & { onError?: (error: unknown) => void },
    ) => log.listen(fromIndex, listener, options),
    verifyChain: (options?: { publicKey?: KeyObject }) => log.verifyChain(options),
    close: async () => log.close?.(),
  };
}

import type { KeyObject } from 'node:crypto';
import type { AnyEvent } from '@x/events';
import type { EventLogLike } from '../event-log/event-log-like.js';
import type { LogEntry, SubscribeOptions } from '../event-log/subscription.js';
import type { Lease } from './lease.js';

/**
 * `log`, with every append refused (`LeaseLostError`) once `lease` has been taken over. On file
 * stores the check is a read before the write, so an append already past it when a takeover lands
 * still commits; the new owner starts only after a whole ttl without heartbeats, which a live
 * holder never lets pass. Database logs fence inside the write itself (see @x/store-postgres).
 */
export function fenceEventLog(log: EventLogLike, lease: Lease): EventLogLike {
  return {
    get length() {
      return log.length;
    },
    indexOf: (id: string) => log.indexOf(id),
    idAt: (index: number) => log.idAt(index),
    async append(event: AnyEvent, options?: { expectedIndex?: number }) {
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
  };
}

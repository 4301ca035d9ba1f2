import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { FileStoreLeases } from '../src/lease/file-store-leases.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import {
  describeLeasesContract,
  type LeasesContractHooks,
  type LeasesContractLocation,
} from '../src/testing/lease-contract.js';

/** `store`, with every generation create, heartbeat write and probe for a generation awaiting its hook first. */
function withHooks(store: FileStore, hooks: LeasesContractHooks): FileStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'write') {
        return async (path: string, data: string | Uint8Array) => {
          if (/\/beat-\d+\.json$/.test(path)) await hooks.beforeRenewal?.();
          return target.write(path, data);
        };
      }
      if (property === 'writeIfAbsent') {
        return async (path: string, data: string | Uint8Array) => {
          if (/\/gen-\d+\.json$/.test(path)) await hooks.beforeTake?.();
          return target.writeIfAbsent(path, data);
        };
      }
      if (property === 'exists') {
        return async (path: string) => {
          if (/\/gen-\d+\.json$/.test(path)) await hooks.beforeCheck?.();
          return target.exists(path);
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function location(store: FileStore, cleanup?: () => Promise<void>): LeasesContractLocation {
  return {
    leases: ({ hooks, ...options }) =>
      new FileStoreLeases(hooks === undefined ? store : withHooks(store, hooks), options),
    openLog: () => EventLog.open(store, { dir: 'conversation-1/events' }),
    ...(cleanup === undefined ? {} : { cleanup }),
  };
}

describeLeasesContract('files in a memory store', () => location(createMemoryFileStore()));

describeLeasesContract('files in a local directory', async () => {
  const root = await mkdtemp(join(tmpdir(), 'x-leases-contract-'));
  return location(createLocalFileStore({ root, durability: 'none' }), () =>
    rm(root, { recursive: true, force: true, maxRetries: 5 }),
  );
});

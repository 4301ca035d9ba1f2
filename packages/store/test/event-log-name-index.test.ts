import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeEvent } from '@x/events';
import { eventFileName, slotFileName } from '../src/event-log/file-names.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { describeNameIndex } from './helpers/name-index-suite.js';

describeNameIndex('memory store', { make: async () => ({ store: createMemoryFileStore() }) });

describeNameIndex('local filesystem', {
  make: async () => {
    const root = await mkdtemp(join(tmpdir(), 'x-name-index-'));
    return {
      store: createLocalFileStore({ root, durability: 'none' }),
      cleanup: () => rm(root, { recursive: true, force: true }),
      // As the local store's appends leave them: each claim, and the event file linked from it.
      writeLog: async (dir, events) => {
        const slots = join(root, dir, '.slots');
        mkdirSync(slots, { recursive: true });
        events.forEach((event, index) => {
          const claim = join(slots, slotFileName(index));
          writeFileSync(claim, serializeEvent(event), { flag: 'wx' });
          linkSync(claim, join(root, dir, eventFileName(index, event.id)));
        });
      },
    };
  },
});

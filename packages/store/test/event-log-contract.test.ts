import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { describeDamagedEventLogContract } from '../src/testing/damaged-event-log-contract.js';
import { describeEventLogContract } from '../src/testing/event-log-contract.js';

describeEventLogContract('files in a memory store', () => {
  const store = createMemoryFileStore();
  return { open: () => EventLog.open(store) };
});

describeEventLogContract('files in a local directory', async () => {
  const root = await mkdtemp(join(tmpdir(), 'x-event-log-contract-'));
  const store = createLocalFileStore({ root, durability: 'none' });
  return { open: () => EventLog.open(store), cleanup: () => rm(root, { recursive: true, force: true, maxRetries: 5 }) };
});

describeEventLogContract('a segment in a memory store', () => {
  const store = createMemoryFileStore();
  return { open: () => EventLog.open(store, { layout: 'segment' }) };
});

describeEventLogContract('a segment in a local directory', async () => {
  const root = await mkdtemp(join(tmpdir(), 'x-event-log-segment-contract-'));
  const store = createLocalFileStore({ root, durability: 'fsync' });
  return {
    open: () => EventLog.open(store, { layout: 'segment' }),
    cleanup: () => rm(root, { recursive: true, force: true, maxRetries: 5 }),
  };
});

describeEventLogContract("a segment in a local directory, eventFiles 'batched'", async () => {
  const root = await mkdtemp(join(tmpdir(), 'x-event-log-segment-batched-contract-'));
  const store = createLocalFileStore({ root, durability: 'fsync' });
  return {
    open: () => EventLog.open(store, { layout: 'segment', eventFiles: 'batched' }),
    cleanup: () => rm(root, { recursive: true, force: true, maxRetries: 5 }),
  };
});

describeDamagedEventLogContract('files in a memory store', () => {
  const store = createMemoryFileStore();
  const entry = async (index: number) => {
    const prefix = `events/event-${String(index).padStart(5, '0')}-`;
    return (await store.list('events/')).find((path) => path.startsWith(prefix))!;
  };
  return {
    open: () => EventLog.open(store),
    async removeEntry(index) {
      await store.delete(await entry(index));
      await store.delete(`events/.slots/${String(index).padStart(5, '0')}.json`);
    },
    async replaceEntryText(index, text) {
      await store.write(await entry(index), text);
    },
  };
});

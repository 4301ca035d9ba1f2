import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
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

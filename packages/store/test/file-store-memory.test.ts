import { serializeEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { eventFileName } from '../src/event-log/file-names.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { toOwnedBytes } from '../src/internal/to-bytes.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { describeFileStoreContract } from '../src/testing/file-store-contract.js';
import { contractMessageEvent } from '../src/testing/index.js';

describeFileStoreContract('memory', () => createMemoryFileStore(), { listingVersion: true });

describe('memory FileStore', () => {
  it('never evicts, past the reference’s 100,000-entry and 20 MiB limits', async () => {
    const store = createMemoryFileStore();
    const big = 'x'.repeat(21 * 1024 * 1024);
    await store.write('big.txt', big);
    await Promise.all(Array.from({ length: 100_050 }, (_, i) => store.write(`many/${i}`, String(i))));
    expect((await store.list('many')).length).toBe(100_050);
    expect(await store.read('many/0')).toBe('0');
    expect((await store.read('big.txt')).length).toBe(big.length);
  });

  it('keeps separate instances separate and names them apart', async () => {
    const one = createMemoryFileStore();
    const two = createMemoryFileStore();
    await one.write('a.txt', '1');
    expect(await two.exists('a.txt')).toBe(false);
    expect(one.describe('a.txt')).not.toBe(two.describe('a.txt'));
    expect(one.describe('a.txt')).toMatch(/^memory:\/\/.+\/a\.txt$/);
  });

  it('copies the arrays callers write, so changing one afterwards changes nothing stored', async () => {
    const store = createMemoryFileStore();
    const data = new TextEncoder().encode('before');
    await store.write('a.txt', data);
    await store.writeRebuildable!([{ path: 'b.txt', data }]);
    data.set(new TextEncoder().encode('AFTER!'));
    expect(await store.read('a.txt')).toBe('before');
    expect(await store.read('b.txt')).toBe('before');
    expect(toOwnedBytes(data)).not.toBe(data);
  });

  it('keeps an event log’s slot claim and event file as one copy of the event’s bytes', async () => {
    const memory = createMemoryFileStore();
    const written = new Map<string, string | Uint8Array>();
    const store: FileStore = {
      ...memory,
      async writeIfAbsent(path, data) {
        written.set(path, data);
        return memory.writeIfAbsent(path, data);
      },
      async write(path, data) {
        written.set(path, data);
        return memory.write(path, data);
      },
    };
    const log = await EventLog.open(store);
    const events = ['first', 'sécond ✓'].map((text, k) =>
      contractMessageEvent(text, `00000000-0000-4000-8000-00000000000${k}`),
    );
    for (const event of events) await log.append(event);
    for (const [index, event] of events.entries()) {
      const claim = written.get(`events/.slots/0000${index}.json`) as Uint8Array;
      const file = written.get(`events/${eventFileName(index, event.id)}`) as Uint8Array;
      // The event file is the claim's last bytes (after its chain header line), in the claim's buffer…
      expect(file.buffer).toBe(claim.buffer);
      expect(file.byteOffset + file.byteLength).toBe(claim.byteOffset + claim.byteLength);
      expect(await memory.read(`events/${eventFileName(index, event.id)}`)).toBe(serializeEvent(event));
      // …and the memory store keeps both as they are (a caller's array would be copied).
      expect(toOwnedBytes(claim)).toBe(claim);
      expect(toOwnedBytes(file)).toBe(file);
    }
    await log.close();
  });
});

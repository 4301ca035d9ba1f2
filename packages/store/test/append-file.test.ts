import { mkdtempSync, statSync, truncateSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';

// `openAppendFile`, the segment layout's commit point: `append` resolves with the file's size just after, which is
// how a writer learns whether another writer's bytes landed before its own. The memory store appends into spare
// room (views of one buffer): these hold both stores to the plain answer whatever other handles, writes and copies
// do meanwhile.

const base = mkdtempSync(join(tmpdir(), 'x-store-append-'));
let counter = 0;

afterAll(async () => {
  await rm(base, { recursive: true, force: true, maxRetries: 5 });
});

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

const stores: [string, () => { store: FileStore; root?: string }][] = [
  ['memory', () => ({ store: createMemoryFileStore() })],
  [
    'local',
    () => {
      const root = join(base, `local-${++counter}`);
      return { store: createLocalFileStore({ root, durability: 'none' }), root };
    },
  ],
];

describe.each(stores)('%s AppendFile', (_name, make) => {
  it('resolves each append with the size just after, with two handles appending in turn', async () => {
    const { store } = make();
    const one = await store.openAppendFile!('log/segment');
    const two = await store.openAppendFile!('log/segment');
    let expected = '';
    for (let round = 0; round < 50; round++) {
      const [first, second] = [`a${round};`, `bb${'x'.repeat(round)};`];
      expected += first;
      expect(await one.append(bytes(first))).toBe(Buffer.byteLength(expected));
      if (round % 3 === 0) continue; // `one` alone for a while: its next size is the one it expects
      expected += second;
      expect(await two.append(bytes(second))).toBe(Buffer.byteLength(expected));
    }
    expect(text(await one.readFrom(0))).toBe(expected);
    expect(await store.read('log/segment')).toBe(expected);
    await one.close();
    await two.close();
  });
});

describe('memory AppendFile', () => {
  // The local store's copy is a hard link: one file, so appends show under both names there.
  it('leaves what was read or copied before an append unchanged (appends into spare room)', async () => {
    const store = createMemoryFileStore();
    const file = await store.openAppendFile!('log/segment');
    await file.append(bytes('one;'));
    const read = await file.readFrom(0);
    await store.copy('log/segment', 'log/copy');
    await file.append(bytes('two;'));
    expect(text(read)).toBe('one;');
    expect(await store.read('log/copy')).toBe('one;');
    // An append to the copy does not reach the original, nor the original's appends the copy.
    const copy = await store.openAppendFile!('log/copy');
    // Short enough to fit the room left in the buffer the two files shared: it must not be written there.
    expect(await copy.append(bytes('th;'))).toBe(7);
    expect(await file.append(bytes('four;'))).toBe(13);
    expect(await store.read('log/copy')).toBe('one;th;');
    expect(await store.read('log/segment')).toBe('one;two;four;');
    // A write over the file: appends go on after its new content.
    await store.write('log/segment', 'new;');
    expect(await file.append(bytes('five;'))).toBe(9);
    expect(await store.read('log/segment')).toBe('new;five;');
    expect(await store.read('log/copy')).toBe('one;th;');
  });
});

describe('local AppendFile', () => {
  it('answers with the real size when the file was cut shorter behind its back', async () => {
    const root = join(base, `local-${++counter}`);
    const store = createLocalFileStore({ root, durability: 'none' });
    const file = await store.openAppendFile!('log/segment');
    expect(await file.append(bytes('0123456789'))).toBe(10);
    truncateSync(join(root, 'log/segment'), 4);
    expect(await file.append(bytes('ab'))).toBe(6);
    expect(statSync(join(root, 'log/segment')).size).toBe(6);
    await file.close();
  });
});

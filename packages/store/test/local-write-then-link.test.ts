import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventFileName } from '../src/event-log/file-names.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';

// `writeIfAbsentThenLinkMany` on the local store: each event's bytes stored once, as a body in `.slots/`, its
// claim beside it, and the event file a hard link of the body; the guarantees of write, writeIfAbsent and copy
// called for each item in order.

const base = mkdtempSync(join(tmpdir(), 'x-store-link-'));
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));
let counter = 0;

const claim = (i: number) => `c/events/.slots/0000${i}.json`;
const body = (i: number) => `c/events/.slots/${eventFileName(i, `e${i}`)}`;
const file = (i: number) => `c/events/${eventFileName(i, `e${i}`)}`;
const items = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => ({
    first: { path: claim(from + k), data: `claim ${from + k}` },
    body: { path: body(from + k), data: `event ${from + k}` },
    linkAt: file(from + k),
  }));

function fresh(durability: 'none' | 'fsync') {
  const root = join(base, `root-${++counter}`);
  return { root, store: createLocalFileStore({ root, durability }) };
}

function names(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

function linkMany(store: FileStore) {
  const write = store.writeIfAbsentThenLinkMany;
  if (write === undefined) throw new Error('the local store offers writeIfAbsentThenLinkMany');
  return write;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
}

describe.each(['none', 'fsync'] as const)('local writeIfAbsentThenLinkMany (durability %s)', (durability) => {
  it('stores bodies and claims, tells onCreated in order before any event file, then links each body', async () => {
    const { root, store } = fresh(durability);
    const seen: string[] = [];
    const created = await linkMany(store)(items(0, 3), (i) =>
      seen.push(`${i}: claim ${existsSync(join(root, claim(i)))}, file ${existsSync(join(root, file(i)))}`),
    );
    expect(created).toBe(3);
    expect(seen).toEqual(['0: claim true, file false', '1: claim true, file false', '2: claim true, file false']);
    expect(names(join(root, 'c/events'))).toEqual(['.slots', ...[0, 1, 2].map((i) => eventFileName(i, `e${i}`))]);
    expect(names(join(root, 'c/events/.slots'))).toEqual(
      ['00000.json', '00001.json', '00002.json', ...[0, 1, 2].map((i) => eventFileName(i, `e${i}`))].sort(),
    );
    for (const i of [0, 1, 2]) {
      expect(readFileSync(join(root, claim(i)), 'utf8')).toBe(`claim ${i}`);
      expect(readFileSync(join(root, file(i)), 'utf8')).toBe(`event ${i}`);
      // One file under two names: the bytes are stored once.
      expect(statSync(join(root, file(i))).ino).toBe(statSync(join(root, body(i))).ino);
    }
  });

  it('resolves 0 and calls nothing for no items', async () => {
    const { root, store } = fresh(durability);
    expect(await linkMany(store)([], () => expect.unreachable())).toBe(0);
    expect(names(root)).toEqual([]);
  });

  it('stops at the first claim that exists: items before it written, its body and those after removed', async () => {
    const { root, store } = fresh(durability);
    await store.write(claim(1), 'taken');
    const seen: number[] = [];
    expect(await linkMany(store)(items(0, 3), (i) => seen.push(i))).toBe(1);
    expect(seen).toEqual([0]);
    expect(names(join(root, 'c/events'))).toEqual(['.slots', eventFileName(0, 'e0')]);
    expect(names(join(root, 'c/events/.slots'))).toEqual(['00000.json', '00001.json', eventFileName(0, 'e0')].sort());
    expect(readFileSync(join(root, claim(1)), 'utf8')).toBe('taken');
  });

  it('resolves 0 and leaves only the existing claim when the first claim is taken', async () => {
    const { root, store } = fresh(durability);
    await store.write(claim(0), 'taken');
    let called = 0;
    expect(await linkMany(store)(items(0, 2), () => called++)).toBe(0);
    expect(called).toBe(0);
    expect(names(join(root, 'c/events'))).toEqual(['.slots']);
    expect(names(join(root, 'c/events/.slots'))).toEqual(['00000.json']);
  });

  it('keeps the body when the claim there was appended by another writer for this very event', async () => {
    const { root, store } = fresh(durability);
    // The other writer's claim: its first line names index 1 and id e1, so it commits this body's name.
    await store.write(claim(1), `${JSON.stringify({ index: 1, id: 'e1' })}\n{"link":true}`);
    expect(await linkMany(store)(items(1, 2), () => undefined)).toBe(0);
    expect(readFileSync(join(root, body(1)), 'utf8')).toBe('event 1');
  });

  it.each([
    ['another event', `${JSON.stringify({ index: 1, id: 'other' })}\n`],
    ['an index that is not a number', `${JSON.stringify({ index: '1', id: 'e1' })}\n`],
    ['an id that is not a string', `${JSON.stringify({ index: 1, id: 1 })}\n`],
    ['a first line that is not JSON', 'not json\n{"index":1,"id":"e1"}'],
  ])('removes the body when the claim there names %s', async (_what, claimText) => {
    const { root, store } = fresh(durability);
    await store.write(claim(1), claimText);
    expect(await linkMany(store)(items(1, 2), () => undefined)).toBe(0);
    expect(existsSync(join(root, body(1)))).toBe(false);
  });

  it('removes the body when a directory sits at the claim’s name', async () => {
    const { root, store } = fresh(durability);
    await mkdir(join(root, claim(0)), { recursive: true });
    expect(await linkMany(store)(items(0, 1), () => undefined)).toBe(0);
    expect(names(join(root, 'c/events/.slots'))).toEqual(['00000.json']);
  });

  it('replaces a body left by an attempt that never claimed, and keeps an event file already linked', async () => {
    const { root, store } = fresh(durability);
    await store.write(body(0), 'left by a crash');
    await store.write(file(1), 'event 1');
    expect(await linkMany(store)(items(0, 2), () => undefined)).toBe(2);
    expect(readFileSync(join(root, file(0)), 'utf8')).toBe('event 0');
    expect(readFileSync(join(root, file(1)), 'utf8')).toBe('event 1');
  });

  it('reports the listing versions around the batch on the directory it opened', async () => {
    const { store } = fresh(durability);
    await linkMany(store)(items(0, 1), () => undefined);
    const before = await store.listingVersion!('c/events');
    let reported: { before: string; after: string } | undefined;
    await linkMany(store)(items(1, 3), () => undefined, { onVersions: (b, a) => (reported = { before: b, after: a }) });
    expect(reported?.before).toBe(before);
    expect(reported?.after).toBe(await store.listingVersion!('c/events'));
    expect(reported?.after).not.toBe(before);
  });

  it('rejects with what onCreated threw, keeping the claims and linking no event file', async () => {
    const { root, store } = fresh(durability);
    const thrown = new Error('caller failed');
    const error = await rejection(
      linkMany(store)(items(0, 2), () => {
        throw thrown;
      }),
    );
    expect(error).toBe(thrown);
    expect(names(join(root, 'c/events'))).toEqual(['.slots']);
    expect(readFileSync(join(root, claim(1)), 'utf8')).toBe('claim 1');
  });

  it('reports a body that cannot be stored as a failed write of that body', async () => {
    const { root, store } = fresh(durability);
    // A non-empty directory at the second body's name: the rename over it fails.
    await store.write(`${body(1)}/inside.txt`, 'x');
    const error = await rejection(linkMany(store)(items(0, 2), () => undefined));
    expect(error).toMatchObject({ code: 'backend_error', operation: 'write', path: body(1) });
    expect(existsSync(join(root, claim(0)))).toBe(false);
    expect(names(join(root, 'c/events/.slots')).filter((name) => name.includes('.tmp-'))).toEqual([]);
  });

  it('writes items outside one claim and one event directory one call at a time, stopping at a taken claim', async () => {
    const { root, store } = fresh(durability);
    await store.write('b/.slots/00000.json', 'taken');
    const seen: number[] = [];
    const mixed = [
      {
        first: { path: 'a/.slots/00000.json', data: 'a' },
        body: { path: 'a/.slots/event-00000-x.json', data: 'ax' },
        linkAt: 'a/event-00000-x.json',
      },
      {
        first: { path: 'b/.slots/00000.json', data: 'b' },
        body: { path: 'b/.slots/event-00000-y.json', data: 'by' },
        linkAt: 'b/event-00000-y.json',
      },
    ];
    expect(await linkMany(store)(mixed, (i) => seen.push(i))).toBe(1);
    expect(seen).toEqual([0]);
    expect(readFileSync(join(root, 'a/event-00000-x.json'), 'utf8')).toBe('ax');
    expect(names(join(root, 'b'))).toEqual(['.slots']);
    expect(names(join(root, 'b/.slots'))).toEqual(['00000.json']);
  });

  it('links afresh, as copy would, when the directory is removed once the claims are made', async () => {
    const { root, store } = fresh(durability);
    // A concurrent delete of the whole log, bodies and claims with it: `copy` walks again and finds no body.
    const error = await rejection(
      linkMany(store)(items(0, 2), (i) => {
        if (i === 0) rmSync(join(root, 'c/events'), { recursive: true });
      }),
    );
    expect(error).toMatchObject({ code: 'file_not_found', path: body(0) });
    expect(existsSync(join(root, 'c/events'))).toBe(false);
  });

  it('writes every item of a mixed layout one call at a time, counting them all', async () => {
    const { root, store } = fresh(durability);
    const mixed = ['a', 'b'].map((dir) => ({
      first: { path: `${dir}/.slots/00000.json`, data: dir },
      body: { path: `${dir}/.slots/event-00000-x.json`, data: `${dir}x` },
      linkAt: `${dir}/event-00000-x.json`,
    }));
    expect(await linkMany(store)(mixed, () => undefined)).toBe(2);
    expect(readFileSync(join(root, 'b/event-00000-x.json'), 'utf8')).toBe('bx');
  });
});

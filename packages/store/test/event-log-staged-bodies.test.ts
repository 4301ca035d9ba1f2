import { lstat, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { userMessageEvent } from './helpers/events.js';

// On the local store an event's bytes are stored once (issue 33): a staged body in events/.slots/ named like
// the event file, a claim holding only the chain link, and the event file a hard link of the body.

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

async function newRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'x-staged-'));
  roots.push(root);
  return root;
}

/** Apparent bytes under `dir`, each inode once. */
async function apparentBytes(dir: string): Promise<number> {
  const seen = new Set<number>();
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const info = await lstat(join(entry.parentPath, entry.name));
    if (seen.has(info.ino)) continue;
    seen.add(info.ino);
    total += info.size;
  }
  return total;
}

describe.each(['none', 'fsync'] as const)('EventLog on the local store (durability %s)', (durability) => {
  it('stores each event once: the event file and its staged body are one file, the claim its link alone', async () => {
    const root = await newRoot();
    const log = await EventLog.open(createLocalFileStore({ root, durability }));
    const events = Array.from({ length: 6 }, (_, i) => userMessageEvent(`message ${i} ${'x'.repeat(2000)}`));
    await log.append(events[0]!);
    await log.append(events[1]!);
    await log.appendMany(events.slice(2, 5));
    await log.append(events[5]!);
    await log.close();
    const dir = join(root, 'events');
    let eventBytes = 0;
    for (const [index, event] of events.entries()) {
      const name = `event-${String(index).padStart(5, '0')}-${event.id}.json`;
      const file = await lstat(join(dir, name));
      const json = serializeEvent(event);
      eventBytes += Buffer.byteLength(json);
      expect(await readFile(join(dir, name), 'utf8')).toBe(json);
      const claim = await readFile(join(dir, '.slots', `${String(index).padStart(5, '0')}.json`), 'utf8');
      expect(file.nlink).toBe(2);
      expect((await lstat(join(dir, '.slots', name))).ino).toBe(file.ino);
      expect(claim).toMatch(/^\{"chain":1,[^\n]*\}\n$/);
    }
    // Claims, the anchor and the head record on top of the events' bytes.
    expect(await apparentBytes(dir)).toBeLessThan(1.2 * eventBytes);
    expect(await verifyEventChain(createLocalFileStore({ root }))).toMatchObject({ status: 'verified', length: 6 });
    const reopened = await EventLog.open(createLocalFileStore({ root }));
    expect((await reopened.range(0)).map((event) => event.id)).toEqual(events.map((event) => event.id));
  });

  it('leaves no body behind for a slot another writer won, and reads the winner from its staged claim', async () => {
    const root = await newRoot();
    const first = await EventLog.open(createLocalFileStore({ root, durability }));
    const start = userMessageEvent('start');
    await first.append(start);
    const second = await EventLog.open(createLocalFileStore({ root, durability }));
    const winner = userMessageEvent('winner');
    const loser = userMessageEvent('loser');
    expect(await first.append(winner)).toBe(1);
    // `second` still believes the log has one event: it loses slot 1 and takes 2.
    expect(await second.append(loser)).toBe(2);
    expect((await second.get(1)).id).toBe(winner.id);
    const bodies = (await readdir(join(root, 'events', '.slots'))).filter((name) => name.startsWith('event-'));
    expect(bodies.sort()).toEqual([
      `event-00000-${start.id}.json`,
      `event-00001-${winner.id}.json`,
      `event-00002-${loser.id}.json`,
    ]);
  });
});

describe('EventLog on the local store, a slot lost to a claim whose staged body is gone', () => {
  it("reads the winner from its event file (a copy that left .slots/'s bodies behind)", async () => {
    const root = await newRoot();
    const first = await EventLog.open(createLocalFileStore({ root, durability: 'none' }));
    await first.append(userMessageEvent('start'));
    const second = await EventLog.open(createLocalFileStore({ root, durability: 'none' }));
    const winner = userMessageEvent('winner');
    expect(await first.append(winner)).toBe(1);
    await rm(join(root, 'events', '.slots', `event-00001-${winner.id}.json`));
    // `second` loses slot 1, reads the winner's claim (its header alone) and finds the bytes under the file's name.
    expect(await second.append(userMessageEvent('loser'))).toBe(2);
    expect((await second.get(1)).id).toBe(winner.id);
  });
});

describe('EventLog on the local store, the same event appended by two writers', () => {
  it('keeps the winner’s body, which the loser’s claim attempt named too, and reports the duplicate', async () => {
    const root = await newRoot();
    const a = await EventLog.open(createLocalFileStore({ root }));
    const b = await EventLog.open(createLocalFileStore({ root }));
    const event = userMessageEvent('same');
    await a.append(event);
    await expect(b.append(event)).rejects.toMatchObject({ code: 'duplicate_event_id' });
    const name = `event-00000-${event.id}.json`;
    expect(await readFile(join(root, 'events', '.slots', name), 'utf8')).toBe(serializeEvent(event));
    await rm(join(root, 'events', name));
    // The event file is linked again from the body the loser left in place.
    expect((await (await EventLog.open(createLocalFileStore({ root }))).get(0)).id).toBe(event.id);
  });
});

describe('EventLog on the local store with stageBodies: false', () => {
  it('writes claims that hold the event, and reads a log mixing both forms', async () => {
    const root = await newRoot();
    const full = await EventLog.open(createLocalFileStore({ root }), { stageBodies: false });
    const events = [userMessageEvent('a'), userMessageEvent('b'), userMessageEvent('c')];
    await full.append(events[0]!);
    await full.appendMany([events[1]!]);
    const claim = await readFile(join(root, 'events', '.slots', '00001.json'), 'utf8');
    expect(claim.endsWith(`\n${serializeEvent(events[1]!)}`)).toBe(true);
    expect(await readdir(join(root, 'events', '.slots'))).not.toContain(`event-00001-${events[1]!.id}.json`);
    const staged = await EventLog.open(createLocalFileStore({ root }));
    await staged.append(events[2]!);
    const reopened = await EventLog.open(createLocalFileStore({ root }));
    expect((await reopened.range(0)).map((event) => event.id)).toEqual(events.map((event) => event.id));
    expect(await verifyEventChain(createLocalFileStore({ root }))).toMatchObject({ status: 'verified', length: 3 });
  });
});

describe('EventLog whose event file a crash left unwritten, with a staged claim', () => {
  it('links the file again from its staged body when reopened, one file under two names', async () => {
    const root = await newRoot();
    const store = createLocalFileStore({ root, durability: 'none' });
    const log = await EventLog.open(store);
    const events = [userMessageEvent('a'), userMessageEvent('b'), userMessageEvent('c')];
    for (const event of events) await log.append(event);
    await log.close();
    const name = `event-00002-${events[2]!.id}.json`;
    await rm(join(root, 'events', name));
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 3, fromClaims: [2] });
    const reopened = await EventLog.open(store);
    expect(reopened.length).toBe(3);
    const file = await lstat(join(root, 'events', name));
    expect(file.ino).toBe((await lstat(join(root, 'events', '.slots', name))).ino);
    expect((await reopened.get(2)).id).toBe(events[2]!.id);
  });

  it("reads a claim whose staged body is gone from its event file (a copy that left .slots/'s bodies behind)", async () => {
    const root = await newRoot();
    const store = createLocalFileStore({ root, durability: 'none' });
    const log = await EventLog.open(store);
    const events = [userMessageEvent('a'), userMessageEvent('b')];
    for (const event of events) await log.append(event);
    await log.close();
    for (const [index, event] of events.entries())
      await rm(join(root, 'events', '.slots', `event-0000${index}-${event.id}.json`));
    // The chain's check reads every claim: each finds its event's bytes under the event file's name.
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 2 });
    expect((await (await EventLog.open(store)).range(0)).map((event) => event.id)).toEqual(events.map((e) => e.id));
  });

  it('reports a claim whose staged body is gone as corrupt, and stops the log before it', async () => {
    const root = await newRoot();
    const store = createLocalFileStore({ root, durability: 'none' });
    const log = await EventLog.open(store);
    const events = [userMessageEvent('a'), userMessageEvent('b'), userMessageEvent('c')];
    for (const event of events) await log.append(event);
    await log.close();
    const name = `event-00002-${events[2]!.id}.json`;
    await rm(join(root, 'events', name));
    await rm(join(root, 'events', '.slots', name));
    const warnings: string[] = [];
    const reopened = await EventLog.open(store, { logger: { warn: (message) => warnings.push(message) } });
    expect(reopened.length).toBe(2);
    expect(warnings.join('\n')).toContain('staged body');
  });
});

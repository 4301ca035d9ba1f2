import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, truncate, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventsError, serializeEvent } from '@x/events';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { StoreError } from '../src/errors.js';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { messageText, userMessageEvent } from './helpers/events.js';

const base = mkdtempSync(join(tmpdir(), 'x-eventlog-damaged-'));
let counter = 0;
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));

/**
 * A local log of `count` messages m0…m{count-1}; returns its root, store and the event file names by index.
 * `fullClaims`: written as logs were before the local store staged bodies (and as stores without
 * `writeIfAbsentThenLinkMany` write them): each claim holds the event, its event file a second copy written
 * without fsync, which a power loss can leave empty or cut short. A staged body's event file is a link of a
 * body made durable before its claim: a power loss leaves it whole or missing.
 */
async function writtenLog(count: number, options: { fullClaims?: boolean } = {}) {
  const root = join(base, `log-${++counter}`);
  const store = createLocalFileStore({ root, durability: 'none' });
  const log = await EventLog.open(options.fullClaims ? { ...store, writeIfAbsentThenLinkMany: undefined } : store);
  for (let i = 0; i < count; i++) await log.append(userMessageEvent(`m${i}`));
  const names = readdirSync(join(root, 'events'))
    .filter((name) => name.startsWith('event-'))
    .sort();
  return { root, store, names, events: join(root, 'events'), slots: join(root, 'events', '.slots') };
}

function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

/** A tiny seeded PRNG (mulberry32), so a failing case can be replayed from the printed seed. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  return (max: number): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * max);
  };
}

describe('EventLog on a damaged local directory', () => {
  it('opens without blocking when an event file is a FIFO, and reads every other event', async () => {
    const { store, names, events } = await writtenLog(5);
    await unlink(join(events, names[2]!));
    mkfifo(join(events, names[2]!));
    const log = await EventLog.open(store);
    expect(log.length).toBe(5);
    const entries = await log.rangeSettled(0);
    expect(entries.map((entry) => (entry.event ? messageText(entry.event) : entry.error.code))).toEqual([
      'm0',
      'm1',
      'not_regular_file',
      'm3',
      'm4',
    ]);
    const bad = entries[2]!;
    expect(bad.error?.message).toContain(join(events, names[2]!));
    await expect(log.get(2)).rejects.toMatchObject({ code: 'not_regular_file' });
  });

  it('opens without blocking when the next slot claim is a FIFO, warns, and refuses to append over it', async () => {
    const { store, slots } = await writtenLog(3);
    mkfifo(join(slots, '00003.json'));
    const warnings: string[] = [];
    const log = await EventLog.open(store, { logger: { warn: (message) => warnings.push(message) } });
    expect(log.length).toBe(3);
    expect(warnings.join('\n')).toContain('is a FIFO');
    expect(await log.refresh()).toBe(0);
    expect(warnings).toHaveLength(1);
    await expect(log.append(userMessageEvent('next'))).rejects.toMatchObject({ code: 'not_regular_file' });
  });

  it('treats a corrupt or truncated claim at the end as the end of the log for readers', async () => {
    const { store, slots } = await writtenLog(3);
    await writeFile(join(slots, '00003.json'), serializeEvent(userMessageEvent('x')).slice(0, 30));
    const warnings: string[] = [];
    const log = await EventLog.open(store, { logger: { warn: (message) => warnings.push(message) } });
    expect(log.length).toBe(3);
    expect(warnings.join('\n')).toContain('Corrupt event file');
    await expect(log.append(userMessageEvent('next'))).rejects.toMatchObject({ code: 'corrupt_event' });
  });

  it('reads event files a power loss left empty, cut short or zero-filled from their claims, and verifies the chain', async () => {
    const { store, names, events } = await writtenLog(4, { fullClaims: true });
    const original = readdirSync(events).length;
    await truncate(join(events, names[0]!), 0);
    await truncate(join(events, names[1]!), 20);
    // The size reached the disk, the data did not: the tail reads as NUL bytes.
    const whole = (await readFile(join(events, names[2]!))).length;
    await truncate(join(events, names[2]!), 30);
    await truncate(join(events, names[2]!), whole);
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', fromClaims: [0, 1, 2] });
    const warnings: string[] = [];
    const log = await EventLog.open(store, { logger: { warn: (message) => warnings.push(message) } });
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(warnings).toHaveLength(3);
    // Rewritten from the claims: the reference reads them again, and nothing else was left behind.
    for (const name of names.slice(0, 3))
      expect(JSON.parse(await readFile(join(events, name), 'utf8')).id).toBeTypeOf('string');
    expect(readdirSync(events)).toHaveLength(original);
    const reopened = await EventLog.open(store, { logger: { warn: (message) => warnings.push(message) } });
    expect((await reopened.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(warnings).toHaveLength(3);
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', fromClaims: [] });
    // A changed file is still reported: only what an unfinished write leaves is taken from the claim.
    await writeFile(join(events, names[3]!), (await readFile(join(events, names[3]!), 'utf8')).replace('m3', 'm9'));
    expect(await verifyEventChain(store)).toMatchObject({ status: 'tampered', problem: { kind: 'altered', index: 3 } });
  });

  it('reports changed event files, directories and links where event files should be, and reads the rest', async () => {
    const { root, store, names, events } = await writtenLog(6);
    // Not what a power loss leaves (a prefix of the event): a changed file, reported, never overwritten.
    await writeFile(join(events, names[1]!), '{"kind": "MessageEvent", "id": ');
    await unlink(join(events, names[3]!));
    await symlink(join(root, 'elsewhere.json'), join(events, names[3]!));
    await writeFile(join(root, 'elsewhere.json'), serializeEvent(userMessageEvent('outside')));
    const log = await EventLog.open(store);
    const codes = (await log.rangeSettled(0)).map((entry) =>
      entry.event ? messageText(entry.event) : entry.error.code,
    );
    expect(codes).toEqual(['m0', 'corrupt_event', 'm2', 'invalid_path', 'm4', 'm5']);

    await unlink(join(events, names[4]!));
    await mkdir(join(events, names[4]!));
    const warnings: string[] = [];
    const warn = (message: string) => warnings.push(message);
    // The claim of 4 still holds the event: it is served from there, with a warning that its file cannot be written.
    const fromClaim = await EventLog.open(store, { logger: { warn } });
    expect(fromClaim.length).toBe(6);
    expect(messageText(await fromClaim.get(4))).toBe('m4');
    expect(warnings.join('\n')).toContain('event 4 is read from its slot claim');
    // Without its claim, a directory is not an event file: the log has a gap there, and says so.
    await unlink(join(events, '.slots', '00004.json'));
    warnings.length = 0;
    const reopened = await EventLog.open(store, { logger: { warn } });
    expect(reopened.length).toBe(4);
    expect(warnings.join('\n')).toContain('index 4 is missing');
  });

  it('gives only typed errors and never blocks on randomly damaged logs (seeded)', async () => {
    const seed = Number(process.env.X_FUZZ_SEED ?? 20_261_124);
    const random = createRandom(seed);
    const damages = ['truncate', 'empty', 'garbage', 'fifo', 'directory', 'dangling-link', 'link-out', 'other-id'];
    for (let round = 0; round < 40; round++) {
      const where = `seed ${seed}, round ${round}`;
      const { root, store, names, events, slots } = await writtenLog(4);
      // Damage 1–3 event files or claims, including the claim past the end.
      for (let n = 1 + random(3); n > 0; n--) {
        const onClaim = random(3) === 0;
        const index = random(5);
        const path = onClaim
          ? join(slots, `${String(index).padStart(5, '0')}.json`)
          : join(events, names[Math.min(index, names.length - 1)]!);
        await rm(path, { recursive: true, force: true, maxRetries: 5 });
        const damage = damages[random(damages.length)]!;
        if (damage === 'truncate') await writeFile(path, serializeEvent(userMessageEvent('t')).slice(0, random(60)));
        if (damage === 'empty') await writeFile(path, '');
        if (damage === 'garbage') await writeFile(path, '\u0000{{{"kind": "toString"');
        if (damage === 'fifo') mkfifo(path);
        if (damage === 'directory') await mkdir(path);
        if (damage === 'dangling-link') await symlink(join(root, 'nowhere'), path);
        if (damage === 'link-out') await symlink(base, path);
        if (damage === 'other-id') await writeFile(path, serializeEvent(userMessageEvent('other')));
      }
      let log: EventLog;
      try {
        log = await EventLog.open(store);
      } catch (error) {
        if (!StoreError.isInstance(error)) throw new Error(`${where}: open threw ${String(error)}`, { cause: error });
        continue;
      }
      for (const entry of await log.rangeSettled(0)) {
        if (entry.error !== undefined) expect(StoreError.isInstance(entry.error), where).toBe(true);
      }
      try {
        await log.append(userMessageEvent('after damage'));
      } catch (error) {
        if (!StoreError.isInstance(error) && !EventsError.isInstance(error)) {
          throw new Error(`${where}: append threw ${String(error)}`, { cause: error });
        }
      }
    }
    // A few seconds alone; the limit is for a full parallel test run on 2 shared cores.
  }, 120_000);

  it('repairs every unfinished event file from its claim and never rewrites a changed one (seeded)', async () => {
    const seed = Number(process.env.X_FUZZ_SEED ?? 20_261_124);
    const random = createRandom(seed ^ 0x5eed);
    for (let round = 0; round < 25; round++) {
      const where = `seed ${seed}, round ${round}`;
      const { store, names, events } = await writtenLog(6, { fullClaims: true });
      const original = await Promise.all(names.map((name) => readFile(join(events, name))));
      const unfinished = new Set<number>();
      const changed = new Map<number, Buffer>();
      for (const index of names.keys()) {
        const bytes = original[index]!;
        const cut = random(bytes.length);
        switch (random(6)) {
          case 0: // what a power loss leaves: empty, cut short, or cut short and zero-filled to some length
            unfinished.add(index);
            changed.set(index, Buffer.alloc(0));
            break;
          case 1:
            unfinished.add(index);
            changed.set(index, bytes.subarray(0, cut));
            break;
          case 2:
            unfinished.add(index);
            changed.set(index, Buffer.concat([bytes.subarray(0, cut), Buffer.alloc(1 + random(bytes.length))]));
            break;
          case 3: {
            // Changed, not unfinished: one byte altered (kept unequal), or bytes added at the end.
            const altered = Buffer.from(bytes);
            altered[cut] = altered[cut] === 0x20 ? 0x21 : 0x20;
            changed.set(index, random(2) === 0 ? altered : Buffer.concat([bytes, Buffer.from(' ')]));
            break;
          }
          default:
            break;
        }
      }
      for (const [index, bytes] of changed) await writeFile(join(events, names[index]!), bytes);
      const log = await EventLog.open(store);
      const entries = await log.rangeSettled(0);
      for (const [index, entry] of entries.entries()) {
        const now = await readFile(join(events, names[index]!));
        if (unfinished.has(index) || !changed.has(index)) {
          expect(entry.event && messageText(entry.event), `${where}, event ${index}`).toBe(`m${index}`);
          expect(now.equals(original[index]!), `${where}, file ${index} restored`).toBe(true);
        } else {
          // Left exactly as found (a changed file is evidence): an error, or an event if it still parses.
          expect(now.equals(changed.get(index)!), `${where}, file ${index} untouched`).toBe(true);
        }
      }
      const report = await verifyEventChain(store);
      const changedOnly = [...changed.keys()].filter((index) => !unfinished.has(index));
      if (changedOnly.length === 0) expect(report.status, where).toBe('verified');
      else expect(report.problem?.index, where).toBe(Math.min(...changedOnly));
    }
  }, 120_000);
});

import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnyEvent, parseEvent, ROOT_PARENT_ID, serializeEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { eventFileName } from '../src/event-log/file-names.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { createSigningEventLog, type IndexedEvents, signEvent, verifyEventSignatures } from '../src/signing/index.js';
import { writeSignatureRecord } from '../src/signing/signature-record.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const { privateKey } = generateKeyPairSync('ed25519');

function message(id: string, parent: string | undefined): AnyEvent {
  return parseEvent({
    id,
    timestamp: '2026-11-21T10:00:00.000000',
    source: 'user',
    ...(parent === undefined ? {} : { parent_id: parent }),
    llm_message: { role: 'user', content: [{ type: 'text', text: `text of ${id}` }] },
    kind: 'MessageEvent',
  });
}

/** The events in the order given, as a verifier reads a log whose files were renamed, removed or copied in. */
function inOrder(events: readonly AnyEvent[]): IndexedEvents {
  return {
    length: events.length,
    get: async (index) => events[index] as AnyEvent,
    idAt: (index) => events[index]?.id ?? '',
  };
}

/** A log of `events`, each signed, in a fresh local store. */
async function signedLog(events: readonly AnyEvent[]): Promise<{ store: FileStore; dir: string }> {
  const root = await mkdtemp(join(tmpdir(), 'x-signing-placement-'));
  roots.push(root);
  const store = createLocalFileStore({ root });
  const log = createSigningEventLog(await EventLog.open(store), { store, dir: 'events', signer: privateKey });
  for (const event of events) await log.append(event);
  await log.close?.();
  return { store, dir: 'events' };
}

const a = message('aaaaaaaa-0001', undefined);
const b = message('bbbbbbbb-0002', 'aaaaaaaa-0001');
const c = message('cccccccc-0003', 'bbbbbbbb-0002');
const fromRoot = message('dddddddd-0004', ROOT_PARENT_ID);

describe('a signed event out of its place', () => {
  it('is verified where its signature puts it: after its parent, or anywhere under the root', async () => {
    const location = await signedLog([a, b, c, fromRoot]);
    expect(await verifyEventSignatures(inOrder([a, b, c, fromRoot]), location)).toMatchObject({
      status: 'verified',
      signed: 4,
      problem: undefined,
    });
  });

  it('is misplaced when events were reordered: a child before its parent, named by index and id', async () => {
    const location = await signedLog([a, b, c]);
    const report = await verifyEventSignatures(inOrder([a, c, b]), location);
    expect(report.status).toBe('invalid');
    expect(report.problem).toMatchObject({ kind: 'misplaced', index: 1, id: c.id });
    expect(report.problem?.message).toContain(`event 1 (id ${c.id}) is signed as the child of ${b.id}`);
  });

  it('is misplaced when an event before it was removed, the first one included', async () => {
    const location = await signedLog([a, b, c]);
    expect((await verifyEventSignatures(inOrder([a, c]), location)).problem).toMatchObject({
      kind: 'misplaced',
      index: 1,
      id: c.id,
    });
    expect((await verifyEventSignatures(inOrder([b, c]), location)).problem).toMatchObject({
      kind: 'misplaced',
      index: 0,
      id: b.id,
    });
  });

  it('is misplaced when it is signed as its own parent', async () => {
    const own = message('ffffffff-0006', 'ffffffff-0006');
    const location = await signedLog([a, own]);
    expect((await verifyEventSignatures(inOrder([a, own]), location)).problem).toMatchObject({
      kind: 'misplaced',
      index: 1,
      id: own.id,
    });
  });

  it('is misplaced when it appears twice', async () => {
    const location = await signedLog([a, b, c]);
    const report = await verifyEventSignatures(inOrder([a, b, b, c]), location);
    expect(report.problem).toMatchObject({ kind: 'misplaced', index: 2, id: b.id });
    expect(report.problem?.message).toContain('an event before it has the same id');
  });

  it('is misplaced when copied, with its signature record, into another signed log', async () => {
    const source = await signedLog([a, b, c]);
    const other = await signedLog([message('eeeeeeee-0005', undefined)]);
    const record = await source.store.read('events/.chain/signatures/cccccccc-0003.json');
    await other.store.write('events/.chain/signatures/cccccccc-0003.json', record);
    const log = await EventLog.open(other.store);
    await log.append(c);
    const report = await verifyEventSignatures(log, other);
    expect(report).toMatchObject({ status: 'invalid', problem: { kind: 'misplaced', index: 1, id: c.id } });
  });
});

describe('a signed log with a gap', () => {
  it('is invalid at the missing index, though every event it can read is signed', async () => {
    // A directory whose event 1 is gone (a reference-style one: event files and their signature records).
    const store = createMemoryFileStore();
    for (const [index, event] of [a, b, c].entries()) {
      await writeSignatureRecord({ store, dir: 'events' }, signEvent(event, privateKey));
      if (index !== 1) await store.write(`events/${eventFileName(index, event.id)}`, serializeEvent(event));
    }
    const log = await EventLog.open(store);
    expect(log.gap).toMatchObject({ missingIndex: 1 });
    const report = await verifyEventSignatures(log, log);
    expect(report.status).toBe('invalid');
    expect(report.problem).toMatchObject({ kind: 'gap', index: 1, id: undefined });
    expect(report.problem?.message).toContain('event 1 is missing');
  });
});

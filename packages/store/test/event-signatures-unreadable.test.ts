// An event that cannot be read is a signature problem only when it was signed: damage to an unsigned event is
// the chain check's to report, and an event whose id is unknown cannot be told either way.
import { generateKeyPairSync } from 'node:crypto';
import type { AnyEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../src/event-log.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import {
  createSigningEventLog,
  didKeyFromKey,
  type IndexedEvents,
  signatureRecordPath,
  verifyEventSignatures,
} from '../src/signing/index.js';
import { userMessageEvent } from './helpers/events.js';

/** Four events: the first three signed, the last appended unsigned. */
async function partlySigned() {
  const store = createMemoryFileStore();
  const inner = await EventLog.open(store);
  const key = generateKeyPairSync('ed25519').privateKey;
  const log = createSigningEventLog(inner, { store, dir: inner.dir, signer: key });
  for (const id of ['s-0', 's-1', 's-2']) await log.append(userMessageEvent(id, id));
  await inner.append(userMessageEvent('unsigned', 'u-3'));
  return { location: { store, dir: inner.dir }, inner, did: didKeyFromKey(key) };
}

/** `events` with the event at `damaged` unreadable (and its id unknown too, when `idKnown` is false). */
function damagedAt(events: EventLog, damaged: number, idKnown = true): IndexedEvents {
  return {
    length: events.length,
    get: async (index): Promise<AnyEvent> => {
      if (index === damaged) throw new Error('the event file is damaged');
      return events.get(index);
    },
    idAt: (index) => {
      if (index === damaged && !idKnown) throw new Error('no id');
      return events.idAt(index);
    },
  };
}

describe('an event that cannot be read', () => {
  it('is an unreadable signature problem when it was signed, naming its signer', async () => {
    const { location, inner, did } = await partlySigned();
    const report = await verifyEventSignatures(damagedAt(inner, 1), location);
    expect(report.status).toBe('invalid');
    expect(report.problem).toMatchObject({ kind: 'unreadable', index: 1, id: 's-1', signer: did });
    expect(report.problem?.message).toContain('the event file is damaged');
    expect(report).toMatchObject({ signed: 2, unsigned: 1, firstUnsigned: 3 });
  });

  it('is counted as unsigned when it has no signature record: after signed events, a missing signature', async () => {
    const { location, inner } = await partlySigned();
    expect(await verifyEventSignatures(damagedAt(inner, 3), location)).toMatchObject({
      status: 'incomplete',
      signed: 3,
      unsigned: 1,
      firstUnsigned: 3,
      missing: { index: 3, id: 'u-3' },
      problem: undefined,
    });
    expect(await verifyEventSignatures(damagedAt(inner, 3), location, { require: 'none' })).toMatchObject({
      status: 'verified',
      unsigned: 1,
    });
  });

  it('is unreadable, without an id or signer, when its id cannot be known either', async () => {
    const { location, inner } = await partlySigned();
    const report = await verifyEventSignatures(damagedAt(inner, 3, false), location);
    expect(report.status).toBe('invalid');
    expect(report.problem).toMatchObject({ kind: 'unreadable', index: 3, id: undefined, signer: undefined });
    expect(report).toMatchObject({ signed: 3, unsigned: 0, firstUnsigned: null });
  });
});

describe('a signature that does not verify', () => {
  it('is not counted as signed, nor its signer credited with the event', async () => {
    const { location, inner, did } = await partlySigned();
    const path = signatureRecordPath(location.dir, 's-1');
    const record = JSON.parse(await location.store.read(path));
    record.signature = `${record.signature[0] === 'A' ? 'B' : 'A'}${record.signature.slice(1)}`;
    await location.store.write(path, JSON.stringify(record));
    const report = await verifyEventSignatures(inner, location);
    expect(report.problem).toMatchObject({ kind: 'bad-signature', index: 1, id: 's-1' });
    expect(report).toMatchObject({ status: 'invalid', signed: 2, unsigned: 1 });
    expect(report.signers).toEqual([{ did, events: 2, firstIndex: 0 }]);
  });
});

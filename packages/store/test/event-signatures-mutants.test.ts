// What a signature report says about events it cannot read, and about the option it is given: the parts of the
// report a reader acts on (which event, which id, from where on signing was required).
import { generateKeyPairSync } from 'node:crypto';
import type { AnyEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { InvalidStoreOptionsError } from '../src/errors/invalid-store-options-error.js';
import { EventLog } from '../src/event-log.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import {
  createSigningEventLog,
  type IndexedEvents,
  type SignatureRequirement,
  verifyEventSignatures,
} from '../src/signing/index.js';
import { userMessageEvent } from './helpers/events.js';

/** A log of `signed` signed events, then `unsigned` appended without a signature. */
async function logOf(signed: number, unsigned: number) {
  const store = createMemoryFileStore();
  const inner = await EventLog.open(store);
  const key = generateKeyPairSync('ed25519').privateKey;
  const log = createSigningEventLog(inner, { store, dir: inner.dir, signer: key });
  for (let n = 0; n < signed; n++) await log.append(userMessageEvent(`signed ${n}`, `s-${n}`));
  for (let n = 0; n < unsigned; n++) await inner.append(userMessageEvent(`unsigned ${n}`, `u-${signed + n}`));
  return { location: { store, dir: inner.dir }, inner };
}

/** `events` with the event at `damaged` unreadable, and its id unknown too unless `idKnown`. */
function damagedAt(events: EventLog, damaged: number, idKnown: boolean): IndexedEvents {
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

describe('the message of an event that cannot be read', () => {
  it('names the event by index and id when its id is known', async () => {
    const { location, inner } = await logOf(3, 0);
    const report = await verifyEventSignatures(damagedAt(inner, 1, true), location);
    expect(report.problem?.message).toBe('event 1 (id s-1) cannot be read: the event file is damaged');
  });

  it('names it by index alone when its id cannot be known', async () => {
    const { location, inner } = await logOf(1, 1);
    const report = await verifyEventSignatures(damagedAt(inner, 1, false), location);
    expect(report.problem?.message).toBe('event 1 cannot be read: the event file is damaged');
  });
});

describe('a signed event that cannot be read', () => {
  it('still starts the signed part: an unsigned event after it is missing its signature', async () => {
    const { location, inner } = await logOf(1, 1);
    const report = await verifyEventSignatures(damagedAt(inner, 0, true), location);
    expect(report).toMatchObject({
      status: 'invalid',
      signed: 0,
      unsigned: 1,
      firstUnsigned: 1,
      unsignedPrefix: 0,
      missing: { index: 1, id: 'u-1' },
      problem: { kind: 'unreadable', index: 0, id: 's-0' },
    });
    expect(report.missing?.message).toBe(
      'event 1 (id u-1) has no signature record, though event 0 before it is signed',
    );
  });
});

describe('the requirement option', () => {
  it('refuses an empty requirement rather than reading it as the default', async () => {
    const { location, inner } = await logOf(1, 1);
    const empty = { require: '' } as unknown as { require: SignatureRequirement };
    await expect(verifyEventSignatures(inner, location, empty)).rejects.toThrow(InvalidStoreOptionsError);
  });

  it('is named in the report, the default included', async () => {
    const { location, inner } = await logOf(1, 0);
    expect((await verifyEventSignatures(inner, location)).require).toBe('after-first-signed');
    expect((await verifyEventSignatures(inner, location, { require: 'none' })).require).toBe('none');
  });
});

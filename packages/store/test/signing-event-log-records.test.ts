import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import {
  createSigningEventLog,
  didKeyFromKey,
  isSigned,
  signEvent,
  verifyEventSignatures,
} from '../src/signing/index.js';
import { writeSignatureRecord } from '../src/signing/signature-record.js';
import { damageBackends } from './helpers/damaged-segment.js';
import { userMessageEvent } from './helpers/events.js';

// The signature record an append through a signing log leaves for its id: a record left by an append that failed
// (its event never landed) is replaced, and the record of the event the log holds under that id, even one another
// instance appended, is kept.

const first = generateKeyPairSync('ed25519').privateKey;
const second = generateKeyPairSync('ed25519').privateKey;

async function signingLog(store: FileStore, key = first) {
  const log = await EventLog.open(store);
  return { log, signing: createSigningEventLog(log, { store, dir: log.dir, signer: key }) };
}

describe.each(damageBackends)('the signature record of an append through a signing log ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  it('replaces a record an append that failed left for the id', async () => {
    const store = await backend.make();
    const { log, signing } = await signingLog(store);
    const event = userMessageEvent('landed');
    // What a failed append of another event with this id left behind (its record written, its event not).
    await writeSignatureRecord(signing, signEvent({ ...userMessageEvent('never landed'), id: event.id }, second));

    expect(await signing.append(event)).toBe(0);
    expect(await isSigned(event, signing)).toBe(true);
    const report = await verifyEventSignatures(log, signing);
    expect(report).toMatchObject({ status: 'verified', signed: 1 });
    expect(report.signers.map(({ did }) => did)).toEqual([didKeyFromKey(first)]);
    await log.close();
  });

  it('keeps the record of the event another instance appended under the id, and refuses the duplicate', async () => {
    const store = await backend.make();
    const one = await signingLog(store, first);
    const other = await signingLog(store, second);
    const event = userMessageEvent('first');
    await one.signing.append(event);

    // `other` has not looked since: the id is new to it until it refreshes.
    await expect(other.signing.append({ ...userMessageEvent('duplicate'), id: event.id })).rejects.toMatchObject({
      code: 'duplicate_event_id',
    });
    expect(await isSigned(event, one.signing)).toBe(true);
    const report = await verifyEventSignatures(one.log, one.signing);
    expect(report.signers.map(({ did }) => did)).toEqual([didKeyFromKey(first)]);
    await one.log.close();
    await other.log.close();
  });
});

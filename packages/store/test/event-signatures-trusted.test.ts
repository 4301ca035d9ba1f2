import { generateKeyPairSync } from 'node:crypto';
import type { AnyEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { InvalidDidKeyError } from '../src/errors/invalid-did-key-error.js';
import { InvalidStoreOptionsError } from '../src/errors/invalid-store-options-error.js';
import { EventLog } from '../src/event-log.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { createSigningEventLog, didKeyFromKey, verifyEventSignatures } from '../src/signing/index.js';
import { userMessageEvent } from './helpers/events.js';

const owner = generateKeyPairSync('ed25519');
const rotated = generateKeyPairSync('ed25519');
const attacker = generateKeyPairSync('ed25519');

/** A log whose events are signed by `signers[i]` in turn, on a memory store. */
async function logSignedBy(...signers: (typeof owner)[]) {
  const store = createMemoryFileStore();
  const events: AnyEvent[] = signers.map((_, index) => userMessageEvent(`m${index}`));
  const keyOf = new Map(events.map((event, index) => [event.id, (signers[index] as typeof owner).privateKey]));
  const log = createSigningEventLog(await EventLog.open(store), {
    store,
    dir: 'events',
    signer: (event) => keyOf.get(event.id),
  });
  for (const event of events) await log.append(event);
  return { log, events };
}

describe('verifyEventSignatures with trustedSigners', () => {
  it('verifies a log signed by a trusted key, named as a did:key or given as a key, public or private', async () => {
    const { log } = await logSignedBy(owner, owner);
    for (const trusted of [didKeyFromKey(owner.publicKey), owner.publicKey, owner.privateKey]) {
      expect(await verifyEventSignatures(log, log, { trustedSigners: [trusted] })).toMatchObject({
        status: 'verified',
        signed: 2,
      });
    }
  });

  it('refuses a log re-signed with another key, naming the first event and its signer', async () => {
    const { log, events } = await logSignedBy(attacker, attacker);
    // Without a trust list, a re-signed log is as valid as the original: only the signer differs.
    expect((await verifyEventSignatures(log, log)).status).toBe('verified');
    const report = await verifyEventSignatures(log, log, { trustedSigners: [owner.publicKey] });
    expect(report.status).toBe('invalid');
    expect(report.problem).toMatchObject({
      kind: 'untrusted-signer',
      index: 0,
      id: events[0]?.id,
      signer: didKeyFromKey(attacker.publicKey),
    });
    expect(report.problem?.message).toContain('not a trusted signer');
  });

  it('accepts a key rotation when both keys are trusted, and refuses an event signed by a third key after it', async () => {
    const { log, events } = await logSignedBy(owner, rotated, attacker);
    const report = await verifyEventSignatures(log, log, { trustedSigners: [owner.publicKey, rotated.publicKey] });
    expect(report.problem).toMatchObject({ kind: 'untrusted-signer', index: 2, id: events[2]?.id });
    expect(report.signers.map((signer) => signer.did)).toEqual([
      didKeyFromKey(owner.publicKey),
      didKeyFromKey(rotated.publicKey),
    ]);
  });

  it('refuses a trust list entry that names no Ed25519 key rather than trusting it', async () => {
    const { log } = await logSignedBy(owner);
    await expect(verifyEventSignatures(log, log, { trustedSigners: ['did:key:z6Mkbogus0'] })).rejects.toBeInstanceOf(
      InvalidDidKeyError,
    );
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
    await expect(verifyEventSignatures(log, log, { trustedSigners: [rsa] })).rejects.toBeInstanceOf(InvalidDidKeyError);
    const notAKey = [Buffer.alloc(32)] as unknown as string[];
    await expect(verifyEventSignatures(log, log, { trustedSigners: notAKey })).rejects.toThrow(
      InvalidStoreOptionsError,
    );
  });
});

import { generateKeyPairSync } from 'node:crypto';
import { type AnyEvent, EventParseError } from '@x/events';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../src/event-log.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { createSigningEventLog, signEvent, verifyEventSignatures, verifySignature } from '../src/signing/index.js';

const { privateKey } = generateKeyPairSync('ed25519');

// Plain objects, as a caller writes them by hand: no `extended_content`, which the schema defaults to [].
const handBuilt = {
  id: 'hand-1',
  timestamp: '2026-11-21T10:00:00.000000',
  source: 'user',
  llm_message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
  kind: 'MessageEvent',
} as unknown as AnyEvent;

describe('an event built by hand, not parsed', () => {
  it('is signed as the log reads it back, appended, and verified', async () => {
    const store = createMemoryFileStore();
    const log = createSigningEventLog(await EventLog.open(store), { store, dir: 'events', signer: privateKey });
    await log.append(handBuilt);
    const reopened = await EventLog.open(store);
    expect(await verifyEventSignatures(reopened, reopened)).toMatchObject({ status: 'verified', signed: 1 });
    expect(verifySignature(await reopened.get(0), signEvent(handBuilt, privateKey))).toBe(true);
  });

  it('is refused with EventParseError when it is no event, by signEvent and by the signing log alike', async () => {
    const broken = { ...handBuilt, llm_message: { role: 'user', content: 42 } } as unknown as AnyEvent;
    expect(() => signEvent(broken, privateKey)).toThrow(EventParseError);
    const store = createMemoryFileStore();
    const log = createSigningEventLog(await EventLog.open(store), { store, dir: 'events', signer: privateKey });
    await expect(log.append(broken)).rejects.toBeInstanceOf(EventParseError);
    expect(await store.list('events/')).toEqual([]);
  });
});

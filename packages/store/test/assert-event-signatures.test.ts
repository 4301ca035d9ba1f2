import { generateKeyPairSync } from 'node:crypto';
import { type AnyEvent, parseEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { SignaturesNotVerifiedError } from '../src/errors/signatures-not-verified-error.js';
import { StoreError } from '../src/errors.js';
import { EventLog } from '../src/event-log.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { assertEventSignatures, createSigningEventLog, type IndexedEvents } from '../src/signing/index.js';

const { privateKey } = generateKeyPairSync('ed25519');

function message(id: string, parent: string | undefined): AnyEvent {
  return parseEvent({
    id,
    timestamp: '2026-11-21T10:00:00.000000',
    source: 'user',
    ...(parent === undefined ? {} : { parent_id: parent }),
    llm_message: { role: 'user', content: [{ type: 'text', text: id }] },
    kind: 'MessageEvent',
  });
}

const inOrder = (events: readonly AnyEvent[]): IndexedEvents => ({
  length: events.length,
  get: async (index) => events[index] as AnyEvent,
});

const a = message('aaaaaaaa-0001', undefined);
const b = message('bbbbbbbb-0002', a.id);

/** `a` and `b`, signed when `sign`, in a memory store; the location of their records. */
async function location(sign: boolean) {
  const store = createMemoryFileStore();
  const inner = await EventLog.open(store);
  const log = sign ? createSigningEventLog(inner, { store, dir: 'events', signer: privateKey }) : inner;
  for (const event of [a, b]) await log.append(event);
  return { store, dir: 'events' };
}

async function rejection(promise: Promise<unknown>): Promise<SignaturesNotVerifiedError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SignaturesNotVerifiedError);
  expect(StoreError.isInstance(error)).toBe(true);
  return error as SignaturesNotVerifiedError;
}

describe('assertEventSignatures', () => {
  it('resolves with the report of a verified log', async () => {
    const report = await assertEventSignatures(inOrder([a, b]), await location(true));
    expect(report).toMatchObject({ status: 'verified', signed: 2 });
  });

  it('rejects an invalid log with a typed error naming the event at fault', async () => {
    const error = await rejection(assertEventSignatures(inOrder([b, a]), await location(true)));
    expect(error).toMatchObject({ code: 'signatures_not_verified', index: 0, id: b.id });
    expect(error.report.problem?.kind).toBe('misplaced');
    expect(error.message).toContain(`event 0 (id ${b.id})`);
  });

  it('rejects an incomplete log naming the first unsigned event, and a log with no signature at all', async () => {
    const signed = await location(true);
    const unsignedTail = message('cccccccc-0003', b.id);
    const incomplete = await rejection(assertEventSignatures(inOrder([a, b, unsignedTail]), signed));
    expect(incomplete).toMatchObject({ index: 2, id: unsignedTail.id, report: { status: 'incomplete' } });
    const none = await rejection(assertEventSignatures(inOrder([a, b]), await location(false)));
    expect(none).toMatchObject({ index: undefined, id: undefined, report: { status: 'unsigned' } });
    expect(none.message).toContain('no event of the 2 is signed');
  });
});

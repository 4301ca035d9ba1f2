import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEventJson } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { canonicalJson, createSigningEventLog, verifyEventSignatures } from '../src/signing/index.js';
import { JsonNumberText, parseJsonKeepingNumbers } from '../src/signing/json-number-text.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const { privateKey } = generateKeyPairSync('ed25519');

/** A state update whose value is `valueText` as written, the way Python writes it. */
function updateText(valueText: string): string {
  return `{"id":"u-1","timestamp":"2026-11-21T10:00:00.000000","source":"environment","key":"state_delta","value":${valueText},"kind":"ConversationStateUpdateEvent"}`;
}

/** The event of `updateText(signedValue)` signed in a log, its file then rewritten with `storedValue`: the report. */
async function verifyRewritten(signedValue: string, storedValue: string) {
  const root = await mkdtemp(join(tmpdir(), 'x-signing-spelling-'));
  roots.push(root);
  const store = createLocalFileStore({ root });
  const log = createSigningEventLog(await EventLog.open(store), { store, dir: 'events', signer: privateKey });
  await log.append(parseEventJson(updateText(signedValue)));
  await log.close?.();
  const name = (await readdir(join(root, 'events'))).find((file) => file.startsWith('event-00000-')) as string;
  const path = join(root, 'events', name);
  expect(await readFile(path, 'utf8')).toBe(updateText(signedValue));
  await writeFile(path, updateText(storedValue));
  const reopened = await EventLog.open(store);
  return verifyEventSignatures(reopened, reopened);
}

describe('a signed event rewritten in another spelling', () => {
  it.each([
    ['key order', '{"a":1,"b":2}', '{"b":2,"a":1}'],
    ['unicode escapes', '{"a":"é\\u00e9"}', '{"a":"\\u00e9é"}'],
    ['number forms 1.0 and 1e0', '{"a":1.0,"b":1e0,"c":-0}', '{"a":1,"b":1,"c":0}'],
    ['an integer past 2^53 JSON.parse reads exactly', '{"a":12345678901234567000}', '{"a":1.2345678901234567e19}'],
  ])('still verifies when only the spelling changed: %s', async (_name, signed, stored) => {
    expect(await verifyRewritten(signed, stored)).toMatchObject({ status: 'verified', signed: 1 });
  });

  it.each([
    ['an integer past 2^53 changed in its last digit', '{"a":12345678901234567890}', '{"a":12345678901234567891}'],
    ['null made a number that overflows', '{"a":null}', '{"a":1e400}'],
    ['a __proto__ key given another value', '{"__proto__":{"x":1}}', '{"__proto__":{"x":2}}'],
    ['a lone surrogate made its replacement character', '{"a":"\\ud800"}', '{"a":"\\ufffd"}'],
  ])('is altered when the value changed: %s', async (_name, signed, stored) => {
    expect(await verifyRewritten(signed, stored)).toMatchObject({
      status: 'invalid',
      problem: { kind: 'altered', index: 0, id: 'u-1' },
    });
  });
});

describe('parseJsonKeepingNumbers', () => {
  it('keeps as written only the numbers no JavaScript number holds, and is JSON.parse for the rest', () => {
    const text =
      '{"big":12345678901234567891,"exact":9007199254740992,"round":1e21,"float":0.30000000000000004,' +
      '"over":-1e400,"under":1e-400,"list":[9007199254740993, true, false, null, "s\\"]"],"nested":{"__proto__":{}}}';
    const value = parseJsonKeepingNumbers(text) as Record<string, unknown>;
    expect(value.big).toEqual(new JsonNumberText('12345678901234567891'));
    expect(value.over).toEqual(new JsonNumberText('-1e400'));
    expect(value.list).toEqual([new JsonNumberText('9007199254740993'), true, false, null, 's"]']);
    expect([value.exact, value.round, value.float, value.under]).toEqual([2 ** 53, 1e21, 0.30000000000000004, 0]);
    expect(Object.keys(value.nested as object)).toEqual(['__proto__']);
    expect(canonicalJson(value)).toBe(
      '{"big":12345678901234567891,"exact":9007199254740992,"float":0.30000000000000004,' +
        '"list":[9007199254740993,true,false,null,"s\\"]"],"nested":{"__proto__":{}},"over":-1e400,"round":1e+21,"under":0}',
    );
  });

  it('gives the canonical JSON JSON.parse gives wherever it holds every number exactly (signatures made before still verify)', () => {
    const text =
      '{ "b" : [ 1.5e300 , -0.0, 1234567890123456 , 1000000000000000000000, "12345678901234567890" ] , "a" : { } , "c" : [ ] }';
    expect(canonicalJson(parseJsonKeepingNumbers(text))).toBe(canonicalJson(JSON.parse(text)));
  });
});

import { createMemoryFileStore, type FileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { InvalidStateDeltaError, UnknownArtifactError } from '../src/session/session-errors.js';
import { applyArtifactDelta, applySessionStateDelta } from '../src/session/session-keys.js';
import { sessionOnMemory } from './support/session-on-memory.js';

describe('session state', () => {
  it('records nothing for an empty delta, and one state_delta for a change', async () => {
    const { session, events } = sessionOnMemory();
    await session.update({});
    expect(events).toEqual([]);
    await session.update({ step: 1 });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ key: 'state_delta', value: { step: 1 } });
    expect(session.state).toEqual({ step: 1 });
  });

  it.each([
    ['a number', 5],
    ['a string', 'abc'],
    ['null', null],
    ['an array', [1]],
    ['a Date (its JSON is a string)', new Date(0)],
  ])('refuses %s as a delta', async (_, delta) => {
    const { session, events } = sessionOnMemory();
    await expect(session.update(delta as unknown as Record<string, unknown>)).rejects.toBeInstanceOf(
      InvalidStateDeltaError,
    );
    expect(events).toEqual([]);
  });

  it('names the key whose value is not JSON, once, whatever the key is called', async () => {
    const { session, events } = sessionOnMemory();
    for (const key of ['when', 'toString', 'constructor']) {
      const error = await session.update({ ok: 1, [key]: () => 1 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidStateDeltaError);
      expect((error as Error).message).toBe(`Invalid session state delta: the value of "${key}" is not JSON`);
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const error = await session.update({ cyclic }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidStateDeltaError);
    expect((error as Error).message).toMatch(/^Invalid session state delta: .*circular/i);
    expect(events).toEqual([]);
  });

  it('holds in memory exactly what the log replays: values as JSON, keys named like Object members kept', async () => {
    const { session, replica } = sessionOnMemory();
    await session.update({ when: new Date(0), ratio: Number.NaN, constructor: 'c', valueOf: 2, keep: 'k' });
    await session.update({ keep: null, gone: null });
    const expected = { when: '1970-01-01T00:00:00.000Z', constructor: 'c', valueOf: 2 };
    expect(session.state).toEqual(expected);
    expect(replica().session_state).toEqual(expected);
    expect(Object.keys(session.state).sort()).toEqual(Object.keys(expected).sort());
  });

  it('refuses a __proto__ key, which no store could keep as a key', async () => {
    const { session, events } = sessionOnMemory();
    const delta = JSON.parse('{"__proto__": {"admin": true}}') as Record<string, unknown>;
    await expect(session.update(delta)).rejects.toBeInstanceOf(InvalidStateDeltaError);
    expect(events).toEqual([]);
  });
});

describe('session folds of a log written elsewhere', () => {
  it('sets and removes keys, and never takes __proto__ as the state’s prototype', () => {
    const delta = JSON.parse('{"__proto__": {"admin": true}, "a": 1, "b": null}') as Record<string, unknown>;
    const next = applySessionStateDelta({ b: 2, c: 3 }, delta);
    expect(next).toEqual({ a: 1, c: 3 });
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
    expect((next as { admin?: unknown }).admin).toBeUndefined();
  });

  it('takes only growing whole versions', () => {
    const delta = JSON.parse(
      '{"__proto__": 9, "a": 1, "b": 1, "c": 2.5, "d": "3", "e": -1, "f": 0, "constructor": 4}',
    ) as Record<string, unknown>;
    expect(applyArtifactDelta({ b: 5 }, delta)).toEqual({ a: 1, b: 5, constructor: 4 });
    expect(applyArtifactDelta(undefined, { a: 2 })).toEqual({ a: 2 });
  });
});

describe('artifacts', () => {
  it('saves text as UTF-8 text/plain and bytes as octet-stream, each loadable by version', async () => {
    const { session, events } = sessionOnMemory();
    await session.saveArtifact('doc', 'héllo');
    await session.saveArtifact('doc', new Uint8Array([104, 105]));
    const text = await session.loadArtifact('doc', 1);
    expect(text).toMatchObject({ name: 'doc', version: 1, mimeType: 'text/plain; charset=utf-8' });
    expect([...text.data]).toEqual([...new TextEncoder().encode('héllo')]);
    const bytes = await session.loadArtifact('doc');
    expect(bytes).toMatchObject({ name: 'doc', version: 2, mimeType: 'application/octet-stream' });
    expect(bytes.text()).toBe('hi');
    expect(events.map((event) => (event as { value?: unknown }).value)).toEqual([{ doc: 1 }, { doc: 2 }]);
  });

  it('keeps the type given, and takes an empty one for none', async () => {
    const { session } = sessionOnMemory();
    await session.saveArtifact('page', '<p>', { mimeType: 'text/html' });
    await session.saveArtifact('page', '<p>', { mimeType: '' });
    expect((await session.loadArtifact('page', 1)).mimeType).toBe('text/html');
    expect((await session.loadArtifact('page', 2)).mimeType).toBe('text/plain; charset=utf-8');
  });

  it('has no versions of an artifact never saved, and no version 0', async () => {
    const { session } = sessionOnMemory();
    expect(session.artifactVersions('never')).toEqual([]);
    await session.saveArtifact('once', 'x');
    const zero = await session.loadArtifact('once', 0).catch((error: unknown) => error);
    expect(zero).toBeInstanceOf(UnknownArtifactError);
    expect(zero).toMatchObject({ artifactName: 'once', version: 0 });
    const missing = await session.loadArtifact('never').catch((error: unknown) => error);
    expect(missing).toMatchObject({ artifactName: 'never', version: undefined });
  });

  it('passes on a store failure other than a missing file', async () => {
    const broken = new Error('disk on fire');
    const base = createMemoryFileStore();
    const store: FileStore = Object.assign(Object.create(base) as FileStore, {
      read: async () => {
        throw broken;
      },
    });
    const { session } = sessionOnMemory(store);
    await session.saveArtifact('doc', 'x');
    await expect(session.loadArtifact('doc')).rejects.toBe(broken);
  });
});

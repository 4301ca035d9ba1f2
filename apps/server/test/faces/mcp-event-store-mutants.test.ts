// The replay buffer of one MCP session on its own: what a resume is told about an id (stored, evicted, or never
// sent), that the oldest messages go first and a replay from any stored one gives exactly the later messages of its
// stream (through thousands of evictions), its byte count, and a replay that leaves the stream free afterwards.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { SessionEventStore } from '../../src/faces/mcp/mcp-event-store.js';

const note = (n: number, pad = 0): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 1, progress: n, message: 'x'.repeat(pad) },
});

async function replay(store: SessionEventStore, from: string): Promise<{ stream: string; sent: JSONRPCMessage[] }> {
  const sent: JSONRPCMessage[] = [];
  const stream = await store.replayEventsAfter(from, { send: async (_id, message) => void sent.push(message) });
  return { stream, sent };
}

describe('SessionEventStore.check', () => {
  it('calls an id it never gave unknown: before its first, after its last, or not in the form it gives', async () => {
    const store = new SessionEventStore();
    expect(store.check('1')).toBe('unknown');
    const first = await store.storeEvent('a', note(1));
    const last = await store.storeEvent('a', note(2));
    expect(store.check(first)).toBe('stored');
    expect(store.check(last)).toBe('stored');
    expect(store.check(String(Number(first) - 1))).toBe('unknown');
    expect(store.check(String(Number(last) + 1))).toBe('unknown');
    expect(store.check(`0${last}`)).toBe('unknown');
    expect(store.check('')).toBe('unknown');
    expect(store.check(` ${last}`)).toBe('unknown');
  });

  it('calls a message larger than the whole buffer evicted at once, its own id included', async () => {
    const store = new SessionEventStore({ maxBytes: 10 });
    const id = await store.storeEvent('a', note(1));
    expect(store.check(id)).toBe('evicted');
    expect(store.bytes).toBe(0);
  });

  it('keeps nothing with a buffer of 0 bytes (no resumption), rather than the default size', async () => {
    const store = new SessionEventStore({ maxBytes: 0 });
    const id = await store.storeEvent('a', note(1));
    expect(store.check(id)).toBe('evicted');
    expect(store.bytes).toBe(0);
  });
});

describe('SessionEventStore bytes', () => {
  it('counts nothing when empty, and keeps messages that fill the buffer exactly', async () => {
    expect(new SessionEventStore().bytes).toBe(0);
    const measure = new SessionEventStore();
    await measure.storeEvent('a', note(1));
    const one = measure.bytes;
    const reported: number[] = [];
    const store = new SessionEventStore({ maxBytes: 2 * one, onStored: (bytes) => reported.push(bytes) });
    const first = await store.storeEvent('a', note(2));
    await store.storeEvent('b', note(3));
    expect(store.bytes).toBe(2 * one);
    expect(store.check(first)).toBe('stored');
    expect(reported).toEqual([one, one]);
    await store.storeEvent('a', note(4));
    expect(store.check(first)).toBe('evicted');
    expect(store.bytes).toBe(2 * one);
  });
});

describe('SessionEventStore eviction and replay', () => {
  it('keeps a suffix of what was sent, and replays exactly the later messages of the stream, through compactions', async () => {
    const store = new SessionEventStore({ maxBytes: 4000 });
    const sent: { id: string; stream: string; message: JSONRPCMessage }[] = [];
    const streams = ['a', 'b', 'c'];
    for (let n = 0; n < 3000; n += 1) {
      // A bursty stream: its list in the buffer shrinks to one message, then grows by two before that one goes.
      const bursty = [0, 10, 25, 26].includes(n % 30);
      const stream = bursty ? 'bursty' : (streams[(n * 7) % 5 === 0 ? 2 : n % 2] as string);
      const message = note(n, n % 13);
      sent.push({ id: await store.storeEvent(stream, message), stream, message });
      if (n % 3 !== 0 && n !== 2999) continue;
      const stored = sent.map((entry) => store.check(entry.id) === 'stored');
      const firstStored = stored.indexOf(true);
      expect(firstStored).toBeGreaterThanOrEqual(0);
      expect(stored.slice(firstStored).every(Boolean)).toBe(true);
      expect(stored.slice(0, firstStored).every((kept) => !kept)).toBe(true);
      expect(sent.slice(0, firstStored).every((entry) => store.check(entry.id) === 'evicted')).toBe(true);
      expect(store.bytes).toBeLessThanOrEqual(4000);
      for (const from of sent.slice(firstStored)) {
        const later = sent.slice(sent.indexOf(from) + 1).filter((entry) => entry.stream === from.stream);
        expect(await replay(store, from.id)).toEqual({
          stream: from.stream,
          sent: later.map((entry) => entry.message),
        });
        expect(await store.getStreamIdForEventId(from.id)).toBe(from.stream);
      }
    }
  });

  it('skips the empty priming events of the stream it replays', async () => {
    const store = new SessionEventStore();
    const first = await store.storeEvent('a', note(1));
    await store.storeEvent('a', {} as JSONRPCMessage);
    await store.storeEvent('a', note(2));
    expect((await replay(store, first)).sent).toEqual([note(2)]);
  });

  it('answers messages stored on the stream once a replay of it has ended, as before it', async () => {
    const store = new SessionEventStore();
    const first = await store.storeEvent('a', note(1));
    await store.storeEvent('a', note(2));
    await replay(store, first);
    await new Promise((resolve) => setImmediate(resolve));
    const after = await store.storeEvent('a', note(3));
    expect((await replay(store, first)).sent).toEqual([note(2), note(3)]);
    expect(store.check(after)).toBe('stored');
  });

  it('starts afresh after clear: what it held is gone, and the bound holds for what comes next', async () => {
    const store = new SessionEventStore({ maxBytes: 1000 });
    const old: string[] = [];
    for (let n = 0; n < 20; n += 1) old.push(await store.storeEvent(n % 2 === 0 ? 'a' : 'b', note(n, 20)));
    store.clear();
    expect(store.bytes).toBe(0);
    expect(old.every((id) => store.check(id) !== 'stored')).toBe(true);
    const fresh: string[] = [];
    for (let n = 0; n < 20; n += 1) fresh.push(await store.storeEvent('a', note(n, 20)));
    expect(store.bytes).toBeLessThanOrEqual(1000);
    expect(store.bytes).toBeGreaterThan(0);
    const firstStored = fresh.findIndex((id) => store.check(id) === 'stored');
    expect(firstStored).toBeGreaterThan(0);
    expect(fresh.slice(0, firstStored).every((id) => store.check(id) === 'evicted')).toBe(true);
    expect((await replay(store, fresh[firstStored] as string)).sent).toHaveLength(fresh.length - firstStored - 1);
  });
});

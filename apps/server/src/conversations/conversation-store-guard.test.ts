import { createMemoryFileStore, type FileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { guardConversationStore } from './conversation-store-guard.js';
import { ConversationDeletedError } from './errors/conversation-deleted-error.js';

/** A store whose writeIfAbsentThenWrite resolves at once and hands over a `rest` that ends when released. */
function deferringStore(): { store: FileStore; release: () => void; finished: () => boolean } {
  const memory = createMemoryFileStore();
  let release!: () => void;
  let finished = false;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const store: FileStore = {
    ...memory,
    async writeIfAbsentThenWrite(first, then, onCreated, options) {
      if (!(await memory.writeIfAbsent(first.path, first.data))) return false;
      onCreated();
      const rest = gate.then(async () => {
        await memory.write(then.path, then.data);
        finished = true;
      });
      if (options?.deferThen) options.deferThen(rest);
      else await rest;
      return true;
    },
  };
  return { store, release, finished: () => finished };
}

describe('guardConversationStore', () => {
  it('refuses every call once revoked', async () => {
    const guarded = guardConversationStore(createMemoryFileStore(), 'c1');
    await guarded.store.write('a.txt', 'a');
    await guarded.revoke();
    await expect(guarded.store.read('a.txt')).rejects.toBeInstanceOf(ConversationDeletedError);
  });

  it('makes revoke wait for the write a call handed over with deferThen, not only for the call', async () => {
    const { store, release, finished } = deferringStore();
    const guarded = guardConversationStore(store, 'c1');
    const handed: Promise<void>[] = [];
    const created = await guarded.store.writeIfAbsentThenWrite!(
      { path: 'events/.slots/00000.json', data: 'claim' },
      { path: 'events/event-00000-a.json', data: 'event' },
      () => undefined,
      { deferThen: (rest) => handed.push(rest) },
    );
    expect(created).toBe(true);
    expect(handed).toHaveLength(1);
    let revoked = false;
    const revoking = guarded.revoke().then(() => {
      revoked = true;
    });
    // The memory store settles in microtasks: once a macrotask has run, a revoke that did not wait is done.
    await new Promise((resolve) => setImmediate(resolve));
    expect(revoked).toBe(false);
    release();
    await revoking;
    expect(finished()).toBe(true);
  });
});

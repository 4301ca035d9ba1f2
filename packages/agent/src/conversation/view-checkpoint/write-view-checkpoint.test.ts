// writeViewCheckpoint in process: the checkpoint file next to base_state.json is written as the view's checkpoint
// text (without fsync where the store can), removed when the view cannot be checkpointed, and left alone while the
// view has not been built (restoreView checks an older file against the log before using it).
import { createEvent, ROOT_PARENT_ID, withParent } from '@x/events';
import { createMemoryFileStore, type FileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { checkpointConversation } from '../../../test/support/checkpoint-conversation.js';
import { buildViewCheckpoint, writeViewCheckpoint } from './build-view-checkpoint.js';
import { VIEW_CHECKPOINT_FILE } from './view-checkpoint-file.js';

const DIR = 'conversation';
const PATH = `${DIR}/${VIEW_CHECKPOINT_FILE}`;

const user = (text: string) =>
  createEvent('MessageEvent', { source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text }] } });

/**
 * A memory store that records which of its write methods was called; `rebuildable: false` gives a store without
 * `writeRebuildable` (as a store that cannot skip fsync).
 */
function recordingStore(rebuildable: boolean): { store: FileStore; calls: string[] } {
  const inner = createMemoryFileStore();
  const calls: string[] = [];
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'writeRebuildable' && !rebuildable) return undefined;
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (key === 'write' || key === 'writeRebuildable' || key === 'delete') {
          const paths =
            key === 'writeRebuildable' ? (args[0] as { path: string }[]).map((file) => file.path) : [args[0]];
          if (paths.includes(PATH)) calls.push(String(key));
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, calls };
}

describe('writeViewCheckpoint', () => {
  for (const rebuildable of [true, false]) {
    it(`writes the view's checkpoint with ${rebuildable ? 'writeRebuildable (no fsync)' : 'write when the store has no writeRebuildable'}`, async () => {
      const { store, calls } = recordingStore(rebuildable);
      const c = await checkpointConversation(store, DIR);
      await c.append(user('a'));
      await c.append(user('b'));
      await writeViewCheckpoint(store, DIR, c.view, c.state, c.log);
      expect(calls).toEqual([rebuildable ? 'writeRebuildable' : 'write']);
      const first = await store.read(PATH);
      expect(JSON.parse(first)).toEqual(buildViewCheckpoint(c.view, c.state, c.log));
      expect(JSON.parse(first)).toMatchObject({ event_count: 2, entries: [[0, 2]] });

      // The next write replaces it with the view's checkpoint as it is now.
      await c.append(user('c'));
      await writeViewCheckpoint(store, DIR, c.view, c.state, c.log);
      expect(JSON.parse(await store.read(PATH))).toMatchObject({ event_count: 3, entries: [[0, 3]] });
    });
  }

  it('leaves an older file alone while the view has not been built', async () => {
    const { store, calls } = recordingStore(true);
    const c = await checkpointConversation(store, DIR);
    await c.append(user('a'));
    await writeViewCheckpoint(store, DIR, c.view, c.state, c.log);
    const written = await store.read(PATH);
    calls.length = 0;
    await c.append(user('b'));
    await writeViewCheckpoint(store, DIR, undefined, c.state, c.log);
    expect(calls).toEqual([]);
    expect(await store.read(PATH)).toBe(written);
  });

  it('removes the file when the view cannot be checkpointed, and is quiet when there is none', async () => {
    const { store, calls } = recordingStore(true);
    const c = await checkpointConversation(store, DIR);
    await c.append(user('a'));
    await writeViewCheckpoint(store, DIR, c.view, c.state, c.log);
    expect(await store.exists(PATH)).toBe(true);
    // An event the log does not hold cannot be named by its log index: no checkpoint of this view.
    c.view.append(withParent(user('not logged'), ROOT_PARENT_ID));
    expect(buildViewCheckpoint(c.view, c.state, c.log)).toBeUndefined();
    calls.length = 0;
    await writeViewCheckpoint(store, DIR, c.view, c.state, c.log);
    expect(calls).toEqual(['delete']);
    expect(await store.exists(PATH)).toBe(false);
    // Again, with no file left to remove: no error.
    await expect(writeViewCheckpoint(store, DIR, c.view, c.state, c.log)).resolves.toBeUndefined();
    expect(await store.exists(PATH)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { messageText, userMessageEvent } from './helpers/events.js';

// A writer that dies between its claim and its event file leaves a committed event with no file. Another
// instance's append that loses that slot to it finishes its append for it, so the reference sees every event.

/** The store as a writer that crashes right after each claim sees it: its event files are never written. */
function crashingAfterClaims(store: FileStore): FileStore {
  return {
    ...store,
    async write(path, data) {
      if (/\/event-\d+-/.test(path)) throw new Error(`crashed before writing ${path}`);
      return store.write(path, data);
    },
  };
}

describe('an append that loses its slot to a writer that crashed after its claim', () => {
  it("writes the crashed writer's event file, then lands at the next index", async () => {
    const store = createMemoryFileStore();
    const log = await EventLog.open(store);
    await log.append(userMessageEvent('a'));
    const crashed = await EventLog.open(crashingAfterClaims(store));
    const lost = userMessageEvent('claimed, never published');
    await crashed.append(lost).catch(() => undefined);
    expect((await store.list('events')).some((name) => name.includes(lost.id))).toBe(false);

    expect(await log.append(userMessageEvent('c'))).toBe(2);
    expect((await store.list('events')).filter((name) => name.includes(lost.id))).toHaveLength(1);
    const reader = await EventLog.open(store);
    expect((await reader.range(0)).map(messageText)).toEqual(['a', 'claimed, never published', 'c']);
  });
});

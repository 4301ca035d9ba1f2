import { expect } from 'vitest';
import { parseEventFileName } from '../../src/event-log/file-names.js';
import { EventLog } from '../../src/event-log.js';
import type { FileStore } from '../../src/file-store.js';

/**
 * Reopens the log in `store` and checks what every writer must guarantee: event files for exactly the
 * indices 0..n-1, one file per index, every event whole and parseable with the id its name carries,
 * no id twice, and every acknowledged append at the index it was acknowledged with.
 */
export async function verifyLog(
  store: FileStore,
  acknowledged: ReadonlyMap<number, string> = new Map(),
): Promise<EventLog> {
  const log = await EventLog.open(store);
  // A segment log rebuilds missing event files after open resolves; close waits for that (the log stays usable).
  await log.close();
  const names = (await store.list('events'))
    .map((path) => parseEventFileName(path))
    .filter((parts) => parts !== undefined);
  const indices = names.map((parts) => parts.index).sort((a, b) => a - b);
  expect(indices).toEqual(Array.from({ length: log.length }, (_, index) => index));
  const events = await log.range(0);
  expect(events).toHaveLength(log.length);
  events.forEach((event, index) => {
    expect(event.id).toBe(log.idAt(index));
  });
  expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
  for (const [index, id] of acknowledged) expect(log.idAt(index), `acknowledged index ${index}`).toBe(id);
  return log;
}

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { eventFileName } from '../../src/event-log/file-names.js';

/**
 * The ids of the log in `<root>/events` as the reference's scan reads the directory: its regex over the names,
 * one file per index from 0 (two files at one index would make its index → id map depend on the listing's
 * order), none past the run, each file parsed and named for the id it holds.
 */
export async function referenceView(root: string): Promise<string[]> {
  const pattern = /^event-(\d{5,})-([0-9a-fA-F-]{8,})\.json$/;
  const byIndex = new Map<number, string[]>();
  for (const name of await readdir(join(root, 'events'))) {
    const match = pattern.exec(name);
    if (match === null) continue;
    const index = Number(match[1]);
    byIndex.set(index, [...(byIndex.get(index) ?? []), name]);
  }
  const ids: string[] = [];
  for (let index = 0; byIndex.has(index); index++) {
    const names = byIndex.get(index)!;
    expect(names, `event files at index ${index}`).toHaveLength(1);
    const event = JSON.parse(await readFile(join(root, 'events', names[0]!), 'utf8'));
    expect(names[0]).toBe(eventFileName(index, event.id));
    ids.push(event.id);
  }
  expect([...byIndex.keys()].filter((index) => index >= ids.length)).toEqual([]);
  return ids;
}

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { eventFileName } from '../src/event-log/file-names.js';
import { PathIdTable } from '../src/event-log/path-id-table.js';

/** Collects garbage now (a turn later, so nothing of this turn is kept alive by it). */
async function collectGarbage(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('PathIdTable memory', () => {
  it("keeps a short log's table small (a server holds thousands of short logs open) and grows it as the log grows", async () => {
    const ids = ['first-abcd', 'second-bcde', 'third-cdef'];
    const paths = ids.map((id, index) => `conv/events/${eventFileName(index, id)}`);
    await collectGarbage();
    const before = process.memoryUsage().arrayBuffers;
    const tables = Array.from({ length: 1000 }, () => {
      const table = new PathIdTable();
      table.find(paths, 'second-bcde');
      return table;
    });
    await collectGarbage();
    const perTable = (process.memoryUsage().arrayBuffers - before) / tables.length;
    expect(perTable).toBeLessThan(1024);
    expect(tables.map((table) => table.find(paths, 'third-cdef'))).toEqual(tables.map(() => 2));

    // The same table, grown far past its first size as its log grows, still finds every id.
    const grownPaths = [
      ...paths,
      ...Array.from({ length: 5000 }, (_, index) => `conv/events/${eventFileName(index + 3, `event-${index + 3}`)}`),
    ];
    const grown = tables[0] as PathIdTable;
    const wanted = ['first-abcd', 'third-cdef', 'event-3', 'event-2500', 'event-5002'];
    expect(wanted.map((id) => grown.find(grownPaths, id))).toEqual([0, 2, 3, 2500, 5002]);
  });
});

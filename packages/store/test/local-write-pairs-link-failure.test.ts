import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLocalFileStore } from '../src/local-file-store.js';

/**
 * Stands in for a disk that refuses one hard link (ENOSPC: the claim directory needs a block it cannot get), a
 * failure no test can cause by itself: the link whose target ends with `refuse.name` fails once.
 */
const refuse = vi.hoisted(() => ({ name: '', refused: 0 }));

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const linkSync = (...args: Parameters<typeof actual.linkSync>) => {
    if (refuse.name !== '' && String(args[1]).endsWith(`/${refuse.name}`)) {
      refuse.name = '';
      refuse.refused++;
      throw Object.assign(new Error(`ENOSPC: no space left on device, link '${String(args[0])}'`), {
        code: 'ENOSPC',
      });
    }
    return actual.linkSync(...args);
  };
  return { ...actual, linkSync, default: { ...actual, linkSync } };
});

const base = mkdtempSync(join(tmpdir(), 'x-store-pairs-link-'));
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));
let counter = 0;

beforeEach(() => {
  refuse.name = '';
  refuse.refused = 0;
});

const claim = (i: number) => `c/events/.slots/0000${i}.json`;
const file = (i: number) => `c/events/event-0000${i}-e${i}.json`;
const pairs = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    first: { path: claim(i), data: `claim ${i}` },
    second: { path: file(i), data: `event ${i}` },
  }));

function names(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

describe.each(['none', 'fsync'] as const)(
  'local writeIfAbsentThenWriteMany when a claim cannot be linked (durability %s)',
  (durability) => {
    it.each([0, 1, 2])(
      'names that claim (pair %i) as its own writeIfAbsent would, publishing no file',
      async (failing) => {
        const root = join(base, `root-${++counter}`);
        const store = createLocalFileStore({ root, durability });
        refuse.name = `0000${failing}.json`;
        const created: number[] = [];
        const error = await store.writeIfAbsentThenWriteMany!(pairs(3), (i) => created.push(i)).then(
          () => undefined,
          (failure: unknown) => failure,
        );
        expect(refuse.refused).toBe(1);
        expect(error).toMatchObject({ code: 'backend_error', operation: 'writeIfAbsent', path: claim(failing) });
        expect((error as Error).message).toContain('ENOSPC');
        // The claims before it are made (their events are committed, their files rebuilt from them); none after it.
        expect(names(join(root, 'c/events/.slots'))).toEqual(
          Array.from({ length: failing }, (_, i) => `0000${i}.json`),
        );
        expect(names(join(root, 'c/events')).filter((name) => name !== '.slots')).toEqual([]);
        expect(created).toEqual([]);
      },
    );
  },
);

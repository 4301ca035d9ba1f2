// With `readablePaths: ['/']` every mount point is below a mounted path, and each is checked for the private root it
// may show. Those checks were made afresh at every command, a stat or more per mount point (hundreds on a host with
// many containers); they are kept while the mount table is unchanged, so a command pays for the mounts that changed,
// while a mount added between commands is still found at the next. Counted through `identityStat`, not timed. Mounts
// need privileges, so the scenario runs in a user and mount namespace of its own (`unshare -Urm`).
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInMountNamespace } from './support/mount-namespace.js';
import { requireBubblewrap } from './support/sandbox-fixture.js';

const script = fileURLToPath(new URL('./support/mount-stats-per-command.ts', import.meta.url));
/** Mounts added between the second command and the third. */
const ADDED = 24;
let base: string;

interface Run {
  exitCode: number | null;
  stdout: string;
  stats: number;
}
let outcome: Record<'first' | 'second' | 'afterMounts' | 'again' | 'listedLate' | 'listedLateAgain', Run>;

beforeAll(async () => {
  await requireBubblewrap();
  base = realpathSync(mkdtempSync(join(tmpdir(), 'x-mount-stats-')));
  mkdirSync(join(base, 'tmp'));
  outcome = runInMountNamespace({ mounts: 'true', args: [base, String(ADDED)], script, tmp: join(base, 'tmp') });
}, 150_000);

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

describe("a sandbox mounting '/'", () => {
  it('runs its commands', () => {
    for (const run of [outcome.first, outcome.second, outcome.afterMounts, outcome.again])
      expect(run).toMatchObject({ exitCode: 0, stdout: '' });
  });

  it('checks the mount points again only when the mount table changed, at a cost that grows with what changed', () => {
    expect(outcome.second.stats).toBeLessThan(outcome.first.stats);
    // Each added mount is checked once, at the next command…
    expect(outcome.afterMounts.stats).toBeGreaterThanOrEqual(outcome.second.stats + ADDED);
    // …and then no longer: a command under an unchanged table costs the same however many mounts there are.
    expect(outcome.again.stats).toBe(outcome.second.stats);
  });

  it('finds a bind of the temporary directory made between commands over a checked mount point, hiding the root there', () => {
    expect(outcome.listedLate).toMatchObject({ exitCode: 0, stdout: '' });
    expect(outcome.listedLateAgain).toMatchObject({ exitCode: 0, stdout: '' });
  });
});

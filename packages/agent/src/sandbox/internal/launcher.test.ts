// The launcher's shell, run for real with a stand-in for bubblewrap (`/bin/echo`, which prints what it was given):
// it joins the cgroups it is given before starting anything, and starts nothing where a cgroup that enforces a limit
// cannot be joined.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildLauncher } from './launcher.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'x-launcher-'));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

function run(cgroups: { file: string; required: boolean }[]) {
  const launcher = buildLauncher({ bwrap: '/bin/echo', args: ['started'], cgroups });
  return spawnSync(launcher.command, launcher.args, { encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });
}

describe('the launcher and its cgroups', () => {
  it('joins every cgroup it is given (writes its own pid, which bubblewrap then has) before starting', () => {
    const required = join(directory, 'required.procs');
    const optional = join(directory, 'optional.procs');
    writeFileSync(required, '');
    writeFileSync(optional, '');
    const result = run([
      { file: required, required: true },
      { file: optional, required: false },
    ]);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('started\n');
    const pid = readFileSync(required, 'utf8').trim();
    expect(pid).toMatch(/^\d+$/);
    expect(readFileSync(optional, 'utf8').trim()).toBe(pid);
  });

  it('starts nothing where a cgroup that enforces a limit cannot be joined (exit 125)', () => {
    const result = run([{ file: join(directory, 'missing', 'cgroup.procs'), required: true }]);
    expect(result.status).toBe(125);
    expect(result.stdout).toBe('');
  });

  it('starts anyway, quietly, where only a cgroup kept for killing cannot be joined', () => {
    const result = run([{ file: join(directory, 'missing', 'cgroup.procs'), required: false }]);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('started\n');
    expect(result.stderr).toBe('');
  });
});

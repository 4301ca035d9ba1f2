// A host where bubblewrap is installed but cannot create its namespaces (user namespaces disabled, a container
// that forbids them), for real: the entry points run in a child process inside a bubblewrap that forbids user
// namespaces to everything it starts. Every way of starting a process on the agent's behalf must fail with
// `SandboxUnavailableError` and run nothing; only the explicit `mode: 'unsandboxed'` runs, and says so.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBubblewrap } from './support/sandbox-fixture.js';

const childScript = fileURLToPath(new URL('./support/sandbox-unavailable-child.ts', import.meta.url));
let workspace: string;

beforeAll(async () => {
  await requireBubblewrap();
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'x-unavailable-')));
});

afterAll(() => {
  rmSync(workspace, { recursive: true, force: true });
});

describe('a host whose bubblewrap cannot create namespaces', () => {
  it('fails every entry point with SandboxUnavailableError and runs nothing; only the explicit opt-out runs', () => {
    const result = spawnSync(
      '/usr/bin/bwrap',
      [
        '--dev-bind',
        '/',
        '/',
        '--unshare-user',
        '--disable-userns',
        '--die-with-parent',
        '--',
        process.execPath,
        '--import',
        'tsx',
        childScript,
        workspace,
      ],
      {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: workspace },
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const line = result.stdout.trim().split('\n').at(-1) ?? '';
    expect(line, result.stderr).toMatch(/^\{/);
    const { support, results } = JSON.parse(line) as {
      support: { available: boolean; reason?: string };
      results: { name: string; outcome: string; ran: boolean }[];
    };
    expect(support.available).toBe(false);
    expect(support.reason).toMatch(/cannot create its namespaces/);
    const byName = Object.fromEntries(results.map((entry) => [entry.name, entry]));
    for (const name of ['createSandbox', 'openDefaultSandbox', 'terminal', 'hook', 'mcpStdio']) {
      expect(byName[name]?.outcome, name).toBe('SandboxUnavailableError(sandbox_unavailable)');
      expect(byName[name]?.ran, name).toBe(false);
    }
    expect(byName.unsandboxed).toMatchObject({ outcome: 'no error: 0', ran: true });
    expect(result.stderr).toContain('running tools WITHOUT a sandbox');
  }, 300_000);
});

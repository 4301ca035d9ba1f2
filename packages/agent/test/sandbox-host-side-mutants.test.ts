// What the host side of a sandboxed command (the launcher shell, bubblewrap's mounts of the host's system) must
// leave as it is, with real bubblewrap: the command's directory on the host holds only what the command wrote
// (the launcher's own redirections write nothing there), and the public files of /etc read inside as on the
// host (only private ones are hidden).
import { lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import type { SandboxPolicyInput } from '../src/sandbox/sandbox-policy.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout } from './support/sandbox-fixture.js';

let layout: ServerLayout;
const sandboxes: Sandbox[] = [];

async function sh(policy: SandboxPolicyInput, script: string) {
  const sandbox = await createSandbox({ policy, workspace: layout.workspace });
  sandboxes.push(sandbox);
  return runSandboxed(sandbox, {
    command: '/bin/sh',
    args: ['-c', script],
    cwd: layout.workspace,
    env: { PATH: '/usr/bin:/bin' },
    wallTimeMs: 120_000,
  });
}

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
});

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  rmSync(layout.root, { recursive: true, force: true });
});

describe("the command's directory on the host", () => {
  it('holds only what the command wrote, with or without limits (cgroups joined or not)', async () => {
    for (const policy of [{}, { limits: { processes: 64, memoryBytes: 512 * 1024 * 1024 } }]) {
      const result = await sh(policy, 'echo made > made.txt');
      expect(result.exitCode, result.stderr).toBe(0);
      expect(readdirSync(layout.workspace), JSON.stringify(policy)).toEqual(['made.txt']);
      rmSync(join(layout.workspace, 'made.txt'));
    }
  });
});

describe('the public files of /etc', () => {
  /** Regular files of /etc and /etc/ssh that others may read: configuration every tool reads, not secrets. */
  function publicFiles(): string[] {
    const found: string[] = [];
    for (const directory of ['/etc', '/etc/ssh']) {
      let names: string[] = [];
      try {
        names = readdirSync(directory);
      } catch {
        // No SSH configured.
      }
      for (const name of names) {
        const path = join(directory, name);
        const stat = lstatSync(path);
        if (stat.isFile() && (stat.mode & 0o004) !== 0 && stat.size > 0) found.push(path);
      }
    }
    return found;
  }

  it('read inside as on the host', async () => {
    const files = publicFiles();
    expect(files).toContain('/etc/passwd');
    const result = await sh({}, files.map((file) => `printf '%s=' '${file}'; wc -c < '${file}'`).join('; '));
    const expected = files.map((file) => `${file}=${readFileSync(file).length}`);
    expect(result.stdout.trim().split('\n')).toEqual(expected);
  });
});

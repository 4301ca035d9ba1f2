// The host side of the sandbox against a hostile command, with real bubblewrap. Before a command is inside its
// namespaces it passes through programs that run on the host with the server's authority: the launcher shell and
// bubblewrap itself. Whatever the command brings (its environment, the descriptors its spawner inherited, the
// paths the policy names, the `bwrap` the server finds) must not act there. Each attack has a control showing
// that it works where nothing stops it.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { probeSandboxSupport } from '../src/sandbox/detect-sandbox-support.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import type { SandboxPolicyInput } from '../src/sandbox/sandbox-policy.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout } from './support/sandbox-fixture.js';

let layout: ServerLayout;
const sandboxes: Sandbox[] = [];

async function sandboxFor(policy: SandboxPolicyInput = {}): Promise<Sandbox> {
  const sandbox = await createSandbox({ policy, workspace: layout.workspace });
  sandboxes.push(sandbox);
  return sandbox;
}

function sh(sandbox: Sandbox, script: string, env: Record<string, string> = {}) {
  return runSandboxed(sandbox, {
    command: '/bin/sh',
    args: ['-c', script],
    cwd: layout.workspace,
    env: { PATH: '/usr/bin:/bin', ...env },
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

describe("the command's start-up variables", () => {
  it('LD_DEBUG_OUTPUT writes no file on the host: the dynamic loader of the launcher and bubblewrap never sees it', async () => {
    const target = join(layout.dataDir, `loader-${randomBytes(4).toString('hex')}`);
    const env = { LD_DEBUG: 'libs', LD_DEBUG_OUTPUT: target };
    // The control: any program started on the host with these variables writes `<target>.<pid>` there.
    spawnSync('/bin/true', { env: { PATH: '/usr/bin:/bin', ...env } });
    const written = () => readdirSync(layout.dataDir).filter((name) => name.startsWith(basename(target)));
    expect(written().length).toBeGreaterThan(0);
    for (const name of written()) rmSync(join(layout.dataDir, name));

    const result = await sh(await sandboxFor(), 'echo "inside: $LD_DEBUG"', env);
    expect(result.stdout).toContain('inside: libs');
    expect(written()).toEqual([]);
  });

  it('BASH_ENV and exported functions run nothing on the host, and still reach the command', async () => {
    const marker = join(layout.dataDir, `bash-env-${randomBytes(4).toString('hex')}`);
    const script = join(layout.workspace, 'startup.sh');
    writeFileSync(script, `echo "ran as $$" >> ${marker}\n`);
    const env = { BASH_ENV: script, ENV: script, 'BASH_FUNC_echo%%': `() { builtin echo hijacked >> ${marker}; }` };
    // The control: a bash started on the host with them runs the script (stdin not a socket: bash would take it
    // for sshd's and read ~/.bashrc instead).
    spawnSync('/bin/bash', ['-c', 'true'], { env: { PATH: '/usr/bin:/bin', ...env }, stdio: 'ignore' });
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);

    const result = await sh(await sandboxFor(), 'echo "inside: $BASH_ENV"', env);
    expect(result.stdout).toContain(`inside: ${script}`);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('the locale and time zone', () => {
  it('are kept from the host side (glibc would read files a path value names) and reach the command as given', async () => {
    const env = { LANG: 'C.UTF-8', LC_ALL: join(layout.workspace, 'locale'), LANGUAGE: 'en', TZ: 'UTC' };
    const result = await sh(await sandboxFor(), 'echo "inside: $LANG|$LC_ALL|$LANGUAGE|$TZ"', env);
    expect(result.stdout).toContain(`inside: C.UTF-8|${env.LC_ALL}|en|UTC`);
  });
});

describe('descriptors the host process inherited', () => {
  it('are closed before bubblewrap: a file open in the spawner is not readable inside', async () => {
    const secretFile = join(layout.dataDir, 'server-secrets.json');
    const sandbox = await sandboxFor();
    const script = 'ls /proc/self/fd; for fd in 3 4 5 9 10 42 200; do cat /proc/self/fd/$fd 2>/dev/null; done';
    const prepared = await sandbox.prepare({
      command: '/bin/sh',
      args: ['-c', script],
      cwd: layout.workspace,
      env: { PATH: '/usr/bin:/bin' },
    });
    // A stand-in server that inherited descriptors it did not open close-on-exec (a supervisor's, a socket
    // activation's), at low and high numbers, and spawns the prepared command as a naive server would.
    const relay =
      'const c = JSON.parse(process.argv[1]); const r = require("node:child_process").spawnSync(c.command, c.args, { cwd: c.cwd, env: c.env, encoding: "utf8" }); process.stdout.write(r.stdout + r.stderr);';
    const fd = openSync(secretFile, 'r');
    try {
      const run = (command: object) =>
        spawnSync(
          '/bin/bash',
          ['-c', 'exec 42<&3 200<&3; exec "$@"', 'relay', process.execPath, '-e', relay, JSON.stringify(command)],
          {
            stdio: ['ignore', 'pipe', 'pipe', fd],
            encoding: 'utf8',
          },
        ).stdout;
      // The control: the same command unsandboxed reads the file through the descriptors.
      expect(run({ command: '/bin/sh', args: ['-c', script], cwd: layout.workspace, env: {} })).toContain(
        layout.fileSecret,
      );
      const inside = run(prepared);
      expect(inside).not.toContain(layout.fileSecret);
      // Only stdio (and the directory `ls` reads) are open.
      expect(inside.trim().split('\n').sort()).toEqual(['0', '1', '2', '3']);
    } finally {
      closeSync(fd);
      await prepared.release();
    }
  });
});

describe('the bubblewrap the server runs', () => {
  it('is never looked up on $PATH, where a sandboxed command could have planted one', async () => {
    const planted = mkdtempSync(join(tmpdir(), 'x-planted-bin-'));
    const marker = join(planted, 'ran');
    writeFileSync(join(planted, 'bwrap'), `#!/bin/sh\necho ran >> ${marker}\nexit 0\n`);
    chmodSync(join(planted, 'bwrap'), 0o755);
    const saved = process.env.PATH;
    process.env.PATH = `${planted}:${saved ?? ''}`;
    try {
      const support = await probeSandboxSupport();
      expect(support.available).toBe(true);
      if (support.available) expect(support.bwrap.startsWith(planted)).toBe(false);
      expect(existsSync(marker)).toBe(false);
    } finally {
      process.env.PATH = saved;
      rmSync(planted, { recursive: true, force: true });
    }
  });
});

describe('private files under /etc', () => {
  /** Files of /etc this process can read but others may not: a secret of its owner, whatever its name. */
  function privateReadable(): string[] {
    const found: string[] = [];
    const walk = (directory: string): void => {
      let names: string[];
      try {
        names = readdirSync(directory);
      } catch {
        return;
      }
      for (const name of names) {
        const path = join(directory, name);
        const stat = lstatSync(path, { throwIfNoEntry: false });
        if (stat === undefined) continue;
        if (stat.isDirectory()) walk(path);
        else if (stat.isFile() && (stat.mode & 0o004) === 0 && stat.size > 0) {
          try {
            readFileSync(path);
            found.push(path);
          } catch {
            // Not ours either.
          }
        }
      }
    };
    walk('/etc');
    return found;
  }

  it('are empty inside, even under a policy that mounts /etc or / readable', async () => {
    const files = privateReadable();
    // Root reads /etc/shadow and the other files kept from users; a server running as another user has, on a stock
    // host, no file of its own there (the rule alone is checked on a directory of ours in host-layout.test.ts).
    if (process.getuid?.() === 0) expect(files.length).toBeGreaterThan(0);
    for (const policy of [{}, { readablePaths: ['/etc'] }, { readablePaths: ['/'] }] as SandboxPolicyInput[]) {
      const result = await sh(
        await sandboxFor(policy),
        files.map((file) => `printf '%s=' '${file}'; cat '${file}' 2>/dev/null | wc -c`).join('; '),
      );
      for (const line of result.stdout.trim().split('\n')) expect(line, JSON.stringify(policy)).toMatch(/=0$/);
    }
  });
});

describe('policy paths inside what the sandbox can write', () => {
  it('are not mounted again, so a directory swapped for a symlink by the sandbox mounts nothing of the host', async () => {
    // A writable path inside the workspace, named like a host directory the sandbox's own /tmp can show: the
    // test's temporary root (holding the data directory's secrets), when it lies directly under /tmp.
    const name = basename(layout.root);
    const nested = join(layout.workspace, 'cache', name);
    mkdirSync(nested, { recursive: true });
    const sandbox = await sandboxFor({ writablePaths: [nested] });
    // The swap: `cache` becomes a symlink to the directory above the test's root, relative, so that it resolves
    // the same on the host (bubblewrap's source) and in the new root (its destination).
    const up = relative(layout.workspace, dirname(layout.root));
    const swap = await sh(sandbox, `mv cache cache.old && ln -s ${up} cache && echo swapped`);
    expect(swap.stdout).toBe('swapped\n');
    const result = await sh(
      sandbox,
      `cat ${join(layout.root, 'data', 'server-secrets.json')} cache/${name}/data/server-secrets.json; ` +
        `echo planted > cache/${name}/planted`,
    );
    expect(`${result.stdout}${result.stderr}`).not.toContain(layout.fileSecret);
    expect(existsSync(join(layout.root, 'planted'))).toBe(false);
  });
});

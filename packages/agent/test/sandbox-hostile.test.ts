// The sandbox against a hostile command, with real bubblewrap. This test process plays the server: its own
// environment and command line carry distinctive secrets, and a miniature data directory holds a sibling
// conversation's workspace, the server's files and a home directory. Each attack must fail inside the
// sandbox, and each control (the same command unsandboxed, or under a policy that allows it) must succeed, so
// a failure to attack is the sandbox's doing and not a broken command.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import type { SandboxPolicyInput } from '../src/sandbox/sandbox-policy.js';
import {
  hostSleeps,
  makeServerLayout,
  requireBubblewrap,
  type ServerLayout,
  waitFor,
} from './support/sandbox-fixture.js';

const ENV_SECRET = `env-secret-${randomBytes(8).toString('hex')}`;
const ARGV_SECRET = `argv-secret-${randomBytes(8).toString('hex')}`;
const SLOW = 180_000;

let layout: ServerLayout;
const sandboxes: Sandbox[] = [];

async function sandboxFor(policy: SandboxPolicyInput = {}): Promise<Sandbox> {
  const sandbox = await createSandbox({ policy, workspace: layout.workspace });
  sandboxes.push(sandbox);
  return sandbox;
}

function commandEnv(): Record<string, string> {
  return { PATH: '/usr/bin:/bin', HOME: layout.workspace, COMMAND_OWN: 'visible-to-the-command' };
}

function sh(sandbox: Sandbox, script: string, wallTimeMs = 120_000) {
  return runSandboxed(sandbox, {
    command: '/bin/sh',
    args: ['-c', script],
    cwd: layout.workspace,
    env: commandEnv(),
    wallTimeMs,
  });
}

/** The same script run directly by this process, as an unsandboxed server would. */
function unsandboxed(script: string): string {
  const result = spawnSync('/bin/sh', ['-c', script], { cwd: layout.workspace, env: commandEnv(), encoding: 'utf8' });
  return `${result.stdout}${result.stderr}`;
}

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
  process.env.X_SERVER_API_KEY = ENV_SECRET;
  process.title = `x-server --api-key=${ARGV_SECRET}`;
});

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  delete process.env.X_SERVER_API_KEY;
  rmSync(layout.root, { recursive: true, force: true });
});

/**
 * A stand-in server: a separate process whose real environment and command line (what /proc shows) carry the
 * secrets, and which spawns `command` as a naive server would, relaying its output.
 */
function standInServer(command: { command: string; args: readonly string[]; cwd: string; env: object }) {
  const relay =
    'const c = JSON.parse(process.argv[1]); const r = require("node:child_process").spawnSync(c.command, c.args, { cwd: c.cwd, env: c.env, encoding: "utf8" }); process.stdout.write(r.stdout + r.stderr);';
  return spawnSync(process.execPath, ['-e', relay, JSON.stringify(command), `--api-key=${ARGV_SECRET}`], {
    env: { ...process.env, X_SERVER_API_KEY: ENV_SECRET },
    encoding: 'utf8',
  }).stdout;
}

describe('the server environment and command line', () => {
  const readEveryProcess =
    'for p in /proc/1 /proc/$PPID /proc/[0-9]*; do cat $p/environ $p/cmdline 2>/dev/null | tr "\\0" " "; echo; done';

  it('are readable through /proc by an unsandboxed command (the control)', () => {
    const output = standInServer({
      command: '/bin/sh',
      args: ['-c', readEveryProcess],
      cwd: layout.workspace,
      env: commandEnv(),
    });
    expect(output).toContain(ENV_SECRET);
    expect(output).toContain(ARGV_SECRET);
  });

  it('are in no process visible inside the sandbox, whatever its network', async () => {
    for (const policy of [{}, { network: { mode: 'allowlist', hosts: ['127.0.0.1:9'] } }] as SandboxPolicyInput[]) {
      const sandbox = await sandboxFor(policy);
      const prepared = await sandbox.prepare({
        command: '/bin/sh',
        args: ['-c', readEveryProcess],
        cwd: layout.workspace,
        env: commandEnv(),
      });
      const output = standInServer(prepared);
      await prepared.release();
      expect(output).toContain('visible-to-the-command');
      expect(output).not.toContain(ENV_SECRET);
      expect(output).not.toContain(ARGV_SECRET);
      // runSandboxed, from this process (whose process.env and title carry the secrets too).
      const result = await sh(sandbox, readEveryProcess);
      expect(result.stdout).toContain('visible-to-the-command');
      expect(result.stdout).not.toContain(ENV_SECRET);
      expect(result.stdout).not.toContain(ARGV_SECRET);
    }
  });

  it('shows only the sandbox processes: /proc is the sandbox PID namespace and there is no /sys', async () => {
    const result = await sh(await sandboxFor(), 'ls /proc | grep -E "^[0-9]+$" | wc -l; ls /sys 2>&1; echo $$');
    const [count = '', ...rest] = result.stdout.trim().split('\n');
    expect(Number.parseInt(count, 10)).toBeLessThan(6);
    expect(rest.join('\n')).toMatch(/No such file or directory/);
  });
});

describe('files outside the workspace', () => {
  it('are neither readable nor listable: the sibling conversation, the data dir, the home dir, /root', async () => {
    const attack = [
      `cat ${join(layout.siblingWorkspace, 'notes.txt')}`,
      `cat ${join(layout.dataDir, 'server-secrets.json')}`,
      `cat ${join(layout.home, '.credentials')}`,
      `ls ${layout.dataDir}/conversations`,
      'ls /root /home /work /var /opt /sys',
      'cat /etc/shadow',
    ].join('; ');
    expect(unsandboxed(attack)).toContain(layout.fileSecret);
    const result = await sh(await sandboxFor(), attack);
    expect(`${result.stdout}${result.stderr}`).not.toContain(layout.fileSecret);
    expect(result.stdout).not.toContain('other');
    expect(result.stderr).toMatch(/No such file or directory/);
  });

  it('are readable when the policy mounts them', async () => {
    const result = await sh(
      await sandboxFor({ readablePaths: [layout.siblingWorkspace] }),
      `cat ${join(layout.siblingWorkspace, 'notes.txt')}; echo x > ${join(layout.siblingWorkspace, 'w')}`,
    );
    expect(result.stdout).toContain(layout.fileSecret);
    expect(result.stderr).toMatch(/Read-only file system/);
  });

  it('stay out of reach through a symlink made inside the workspace', async () => {
    const result = await sh(
      await sandboxFor(),
      `ln -s /etc/shadow shadow; ln -s ${join(layout.siblingWorkspace, 'notes.txt')} notes; ln -s / root; ` +
        `cat shadow notes; cat root${layout.dataDir}/server-secrets.json; ls root`,
    );
    expect(`${result.stdout}${result.stderr}`).not.toContain(layout.fileSecret);
    expect(result.stderr).toMatch(/Permission denied|No such file/);
    expect(result.stdout).not.toMatch(/\bwork\b|\broot\b/);
  });

  it('cannot be written: the data dir, the system, and /tmp is the sandbox own', async () => {
    const marker = `tmp-${randomBytes(4).toString('hex')}`;
    const result = await sh(
      await sandboxFor(),
      `echo x > ${join(layout.dataDir, 'planted')}; echo x > /usr/planted; echo x > /etc/planted; ` +
        `echo x > /tmp/${marker} && cat /tmp/${marker}; echo mine > in-workspace`,
    );
    expect(existsSync(join(layout.dataDir, 'planted'))).toBe(false);
    expect(existsSync('/usr/planted')).toBe(false);
    expect(existsSync(`/tmp/${marker}`)).toBe(false);
    expect(result.stdout).toContain('x');
    expect(readFileSync(join(layout.workspace, 'in-workspace'), 'utf8')).toBe('mine\n');
  });

  it('a FIFO in the workspace works inside, and a command blocked on one ends at the wall time', async () => {
    const sandbox = await sandboxFor();
    const piped = await sh(sandbox, 'rm -f fifo; mkfifo fifo; (echo through-the-fifo > fifo &); cat fifo');
    expect(piped.stdout).toBe('through-the-fifo\n');
    const blocked = await sh(sandbox, 'rm -f fifo2; mkfifo fifo2; cat fifo2', 2_000);
    expect(blocked.limit).toBe('wall_time');
    expect(statSync(join(layout.workspace, 'fifo2')).isFIFO()).toBe(true);
  });
});

describe('limits', () => {
  it('a huge write stops at the file size limit', async () => {
    const sandbox = await sandboxFor({ limits: { fileSizeBytes: 1_000_000 } });
    const result = await sh(sandbox, 'head -c 50000000 /dev/zero > big');
    expect(result.limit).toBe('file_size');
    expect(statSync(join(layout.workspace, 'big')).size).toBeLessThanOrEqual(1_000_000);
  });

  it(
    'a fork bomb is bounded, ends as a process limit, and the host stays fine',
    async () => {
      const sandbox = await sandboxFor({ limits: { processes: 16 } });
      const result = await sh(sandbox, 'bomb() { bomb | bomb & }; bomb; sleep 3', 60_000);
      expect(['processes', 'wall_time']).toContain(result.limit);
      const spread = await sh(sandbox, 'for i in $(seq 64); do sleep 1000 & done; wait', 60_000);
      expect(['processes', 'wall_time']).toContain(spread.limit);
      expect(spawnSync('/bin/true').status).toBe(0);
    },
    SLOW,
  );

  it(
    'a busy loop stops at the CPU time limit',
    async () => {
      const sandbox = await sandboxFor({ limits: { cpuTimeSeconds: 1 } });
      const result = await sh(sandbox, 'while :; do :; done');
      expect(result.limit).toBe('cpu_time');
    },
    SLOW,
  );

  it('output past the limit is cut and the command killed', async () => {
    const result = await runSandboxed(await sandboxFor(), {
      command: '/bin/sh',
      args: ['-c', 'yes'],
      cwd: layout.workspace,
      env: commandEnv(),
      outputBytes: 10_000,
      wallTimeMs: 120_000,
    });
    expect(result.limit).toBe('output');
    expect(result.truncated).toBe(true);
    expect(result.stdout.length).toBe(10_000);
  });
});

describe('leftover processes', () => {
  it(
    'daemons started by a one-shot command die with it (setsid, nohup, double fork)',
    async () => {
      const tag = 700_000 + Math.floor(Math.random() * 100_000);
      const result = await sh(
        await sandboxFor(),
        `setsid sleep ${tag} & nohup sleep ${tag + 1} >/dev/null 2>&1 & (sh -c 'sleep ${tag + 2} &' &); ` +
          // The command ends only once all three daemons run.
          `until [ "$(ps -eo args | grep -cE '^sleep (${tag}|${tag + 1}|${tag + 2})$')" = 3 ]; do sleep 0.1; done; echo started`,
      );
      expect(result.stdout).toBe('started\n');
      await waitFor(() => [tag, tag + 1, tag + 2].every((n) => hostSleeps(n).length === 0), 'the daemons to be gone');
    },
    SLOW,
  );

  it(
    'dispose() kills a running command and its daemons',
    async () => {
      const tag = 800_000 + Math.floor(Math.random() * 100_000);
      const sandbox = await createSandbox({ policy: {}, workspace: layout.workspace });
      const child = await sandbox.spawn({
        command: '/bin/sh',
        args: ['-c', `setsid sleep ${tag} & exec sleep ${tag + 1}`],
        cwd: layout.workspace,
        env: commandEnv(),
        stdio: 'ignore',
      });
      await waitFor(() => hostSleeps(tag).length > 0, 'the daemon to start');
      await sandbox.dispose();
      await waitFor(() => hostSleeps(tag).length + hostSleeps(tag + 1).length === 0, 'the processes to be gone');
      await waitFor(() => child.exitCode !== null || child.signalCode !== null, 'the sandbox to exit');
    },
    SLOW,
  );

  it(
    'the sandbox dies with the host process that started it (--die-with-parent)',
    async () => {
      const tag = 900_000 + Math.floor(Math.random() * 100_000);
      const sandbox = await sandboxFor();
      const prepared = await sandbox.prepare({
        command: '/bin/sh',
        args: ['-c', `setsid sleep ${tag} & exec sleep ${tag + 1}`],
        cwd: layout.workspace,
        env: commandEnv(),
      });
      // A stand-in server that spawns the prepared command and is then killed without any chance to clean up.
      const host = spawn(
        process.execPath,
        [
          '-e',
          'const p = JSON.parse(process.argv[1]); require("node:child_process").spawn(p.command, p.args, { cwd: p.cwd, env: p.env, stdio: "ignore", detached: true }); setInterval(() => {}, 1000);',
          JSON.stringify(prepared),
        ],
        { stdio: 'ignore' },
      );
      await waitFor(() => hostSleeps(tag).length > 0, 'the daemon to start');
      host.kill('SIGKILL');
      await waitFor(
        () => hostSleeps(tag).length + hostSleeps(tag + 1).length === 0,
        'the sandbox to die with its host',
      );
      await prepared.release();
    },
    SLOW,
  );
});

describe('a sandbox file planted by the host', () => {
  it('is the only way in: the workspace is shared both ways', async () => {
    writeFileSync(join(layout.workspace, 'from-host.txt'), 'hello from the host');
    const result = await sh(await sandboxFor(), 'cat from-host.txt');
    expect(result.stdout).toBe('hello from the host');
  });
});

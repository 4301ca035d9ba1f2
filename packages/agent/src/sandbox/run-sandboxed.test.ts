// runSandboxed's own part, with real processes and a sandbox of the test's own that prepares each command as it is
// (the confinement is bubblewrap's, tested in test/sandbox-*.test.ts): its stdin, its output up to the limit, which
// limit it reports, and that what the sandbox set up for it is released and killed.
import { constants } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runSandboxed } from './run-sandboxed.js';
import type { PreparedCommand, Sandbox, SandboxCommand } from './sandbox.js';
import { sandboxPolicySchema } from './sandbox-policy.js';

interface Recorded {
  released: number;
  killed: number;
}

/** A sandbox that runs each command as it is, records what runSandboxed asks of it, and reports `hit`. */
function plainSandbox(hit?: { processes: boolean; memory: boolean }): Sandbox & { recorded: Recorded } {
  const recorded: Recorded = { released: 0, killed: 0 };
  return {
    kind: 'bubblewrap',
    policy: sandboxPolicySchema.parse({}),
    workspace: '/',
    recorded,
    prepare: async (command: SandboxCommand): Promise<PreparedCommand> => ({
      command: command.command,
      args: [...command.args],
      cwd: command.cwd,
      env: { ...command.env },
      release: async () => {
        recorded.released += 1;
      },
      ...(hit === undefined ? {} : { limitsHit: async () => hit }),
      kill: async () => {
        recorded.killed += 1;
      },
    }),
    spawn: () => Promise.reject(new Error('not used by runSandboxed')),
    signal: () => undefined,
    dispose: async () => undefined,
  };
}

const sh = (script: string) => ({ command: '/bin/sh', args: ['-c', script], cwd: '/', env: { PATH: '/usr/bin:/bin' } });

describe('runSandboxed', () => {
  it('writes stdin and closes it, so a command reading to its end finishes; then releases the command', async () => {
    const sandbox = plainSandbox();
    const result = await runSandboxed(sandbox, { ...sh('cat; echo end'), stdin: 'given\n', wallTimeMs: 60_000 });
    expect(result).toEqual({ exitCode: 0, signal: null, stdout: 'given\nend\n', stderr: '', truncated: false });
    expect(sandbox.recorded).toEqual({ released: 1, killed: 0 });
    // Without stdin, an empty one (closed at once), not the caller's.
    expect((await runSandboxed(sandbox, { ...sh('cat; echo end'), wallTimeMs: 60_000 })).stdout).toBe('end\n');
  });

  it('keeps exactly the first outputBytes, then kills the command and its cgroups once, reporting `output`', async () => {
    const sandbox = plainSandbox();
    const result = await runSandboxed(sandbox, {
      ...sh('echo 0123456789; while :; do echo more; done'),
      outputBytes: 4,
      wallTimeMs: 60_000,
    });
    expect(result.stdout).toBe('0123');
    expect(result.truncated).toBe(true);
    expect(result.limit).toBe('output');
    expect(sandbox.recorded).toEqual({ released: 1, killed: 1 });
  });

  it("reports the sandbox's accounted limits first, and none where the sandbox accounts nothing", async () => {
    const processes = await runSandboxed(plainSandbox({ processes: true, memory: true }), sh('exit 1'));
    expect(processes.limit).toBe('processes');
    const memory = await runSandboxed(plainSandbox({ processes: false, memory: true }), sh('exit 1'));
    expect(memory.limit).toBe('memory');
    const none = await runSandboxed(plainSandbox(), sh('exit 1'));
    expect(none).toEqual({ exitCode: 1, signal: null, stdout: '', stderr: '', truncated: false });
  });

  // Inside the sandbox, a command killed by a signal is reported as bubblewrap's exit code 128 + the signal.
  const { SIGXFSZ, SIGXCPU } = constants.signals;
  it('reads an exit of 128 + SIGXFSZ or SIGXCPU as that limit, unless runSandboxed itself killed the command', async () => {
    const fileSize = await runSandboxed(plainSandbox(), sh(`exit ${128 + SIGXFSZ}`));
    expect(fileSize.limit).toBe('file_size');
    const cpu = await runSandboxed(plainSandbox(), sh(`exit ${128 + SIGXCPU}`));
    expect(cpu.limit).toBe('cpu_time');
    const controller = new AbortController();
    controller.abort();
    const aborted = await runSandboxed(plainSandbox(), { ...sh(`exit ${128 + SIGXCPU}`), signal: controller.signal });
    expect(aborted.limit).toBeUndefined();
  });

  it('keeps all of an output under the limit, untruncated', async () => {
    const result = await runSandboxed(plainSandbox(), { ...sh('echo small'), outputBytes: 1000 });
    expect(result).toEqual({ exitCode: 0, signal: null, stdout: 'small\n', stderr: '', truncated: false });
  });

  it('kills the command and its cgroups at the wall time, reporting `wall_time`', async () => {
    const sandbox = plainSandbox();
    const result = await runSandboxed(sandbox, { ...sh('exec sleep 600'), wallTimeMs: 100 });
    expect(result.limit).toBe('wall_time');
    expect(result.signal).toBe('SIGKILL');
    expect(sandbox.recorded).toEqual({ released: 1, killed: 1 });
  });

  it('reports a command that could not be spawned in stderr, without rejecting, and still releases it', async () => {
    const sandbox = plainSandbox();
    const result = await runSandboxed(sandbox, { command: '/nonexistent/x-command', args: [], cwd: '/', env: {} });
    expect(result.exitCode).toBeNull();
    expect(result.stderr).toMatch(/^The sandbox could not start: .*ENOENT/);
    expect(sandbox.recorded.released).toBe(1);
  });
});

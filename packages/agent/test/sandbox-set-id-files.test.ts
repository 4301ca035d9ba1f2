// A sandboxed command runs as the server's own user on the host (user namespace 0 is the server's uid: root for a
// server run as root), and the workspace is the host's file system. A setuid or setgid program it makes there is
// one of the server's identity on the host, for any local user or process that runs it (the sandbox's own mount is
// nosuid; the host's is not). Workspace checkpoints never restore a set-id bit for that reason; the sandbox must not
// set one either, by chmod or at creation. With real bubblewrap and its seccomp filter.
import { lstatSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout } from './support/sandbox-fixture.js';

let layout: ServerLayout;
let sandbox: Sandbox;

async function run(script: string) {
  const result = await runSandboxed(sandbox, {
    command: '/bin/bash',
    args: ['-c', script],
    cwd: layout.workspace,
    env: { PATH: '/usr/bin:/bin', HOME: layout.workspace },
    wallTimeMs: 120_000,
  });
  return result;
}

/** The mode bits of a workspace file as the host sees them. */
const hostMode = (name: string): number => lstatSync(join(layout.workspace, name)).mode & 0o7777;

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
  sandbox = await createSandbox({ policy: {}, workspace: layout.workspace });
});

afterAll(async () => {
  await sandbox?.dispose();
  rmSync(layout.root, { recursive: true, force: true });
});

describe('a set-id bit on a workspace file', () => {
  it('is refused when a command sets it, by chmod in any spelling, and the file keeps its mode on the host', async () => {
    const result = await run(
      [
        'cp /bin/true suid; cp /bin/true sgid; cp /bin/true octal; mkdir shared',
        'chmod u+s suid; echo "u+s $?"',
        'chmod g+s sgid; echo "g+s $?"',
        'chmod 6755 octal; echo "6755 $?"',
        'chmod g+s shared; echo "dir g+s $?"',
        `python3 -c 'import os; os.chmod("suid", 0o4755)' 2>/dev/null; echo "python $?"`,
        `python3 -c 'import os; fd = os.open("suid", os.O_RDONLY); os.fchmod(fd, 0o4755)' 2>/dev/null; echo "fchmod $?"`,
      ].join('\n'),
    );
    expect(result.stdout.trim().split('\n')).toEqual(['u+s 1', 'g+s 1', '6755 1', 'dir g+s 1', 'python 1', 'fchmod 1']);
    for (const name of ['suid', 'sgid', 'octal']) expect(hostMode(name), name).toBe(0o755);
    expect(hostMode('shared') & 0o6000).toBe(0);
  });

  it('is never given to a file created with it (open, creat, mknod, install -m), nor through openat2', async () => {
    const result = await run(
      [
        `python3 -c 'import os; os.close(os.open("created", os.O_CREAT | os.O_WRONLY, 0o4755))' 2>/dev/null; echo "open $?"`,
        `python3 -c 'import os, stat; os.mknod("made", stat.S_IFREG | 0o2755)' 2>/dev/null; echo "mknod $?"`,
        'install -m 4755 /bin/true installed 2>/dev/null; echo "install $?"',
        // openat2(AT_FDCWD, "viaopenat2", {O_CREAT|O_WRONLY, 04755}, 24): its mode is in memory.
        `perl -e 'require "syscall.ph"; my ($path, $how) = ("viaopenat2", pack("QQQ", 0101, 04755, 0)); my $r = syscall(&SYS_openat2, -100, $path, $how, 24); print $r == -1 ? ($!{ENOSYS} ? "ENOSYS" : "errno $!") : "ok", "\\n"'`,
      ].join('\n'),
    );
    const lines = result.stdout.trim().split('\n');
    expect(lines.slice(0, 3), result.stderr).toEqual(['open 1', 'mknod 1', 'install 1']);
    expect(lines[3]).toBe('ENOSYS');
    for (const name of ['created', 'made', 'installed', 'viaopenat2']) {
      const mode = (() => {
        try {
          return hostMode(name);
        } catch {
          return 0;
        }
      })();
      expect(mode & 0o6000, name).toBe(0);
    }
  });

  it('leaves every other mode alone: chmod, the sticky bit, creating files and directories (the control)', async () => {
    const result = await run(
      [
        'cp /bin/true tool && chmod 750 tool && ./tool && echo "750 $?"',
        'mkdir -p drop && chmod 1777 drop && echo "1777 $?"',
        `python3 -c 'import os; os.close(os.open("new", os.O_CREAT | os.O_WRONLY, 0o640))' && echo "open $?"`,
        'install -m 755 /bin/true plain && echo "install $?"',
        'echo text > notes && chmod a-w notes && echo "a-w $?"',
      ].join('\n'),
    );
    expect(result.stdout.trim().split('\n'), result.stderr).toEqual([
      '750 0',
      '1777 0',
      'open 0',
      'install 0',
      'a-w 0',
    ]);
    expect(hostMode('tool')).toBe(0o750);
    expect(hostMode('drop')).toBe(0o1777);
    expect(hostMode('plain')).toBe(0o755);
  });
});

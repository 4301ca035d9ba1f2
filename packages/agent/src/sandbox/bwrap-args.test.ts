import { describe, expect, it } from 'vitest';
import { type BwrapArgsOptions, buildBwrapArgs, policyMounts } from './bwrap-args.js';

const base: BwrapArgsOptions = {
  workspace: '/srv/data/conversations/c1/workspace',
  cwd: '/srv/data/conversations/c1/workspace/src',
  network: 'none',
  writablePaths: [],
  readablePaths: [],
  systemEntries: [
    { path: '/usr', kind: 'directory' },
    { path: '/bin', kind: 'symlink', target: 'usr/bin' },
    { path: '/etc', kind: 'directory' },
  ],
  runtimeFiles: [],
  hiddenFiles: ['/etc/shadow'],
  hiddenDirectories: ['/etc/ssl/private'],
  argv: ['/bin/sh', '-c', 'echo hi'],
};

/** The argument pairs (`--flag value`) of the command line, in order, for asserting on mounts. */
function pairs(args: string[], flag: string): string[][] {
  const found: string[][] = [];
  args.forEach((arg, index) => {
    if (arg === flag) found.push(args.slice(index + 1, index + (flag === '--chdir' || flag === '--tmpfs' ? 2 : 3)));
  });
  return found;
}

describe('buildBwrapArgs', () => {
  it('creates every namespace, drops capabilities and dies with its parent', () => {
    const args = buildBwrapArgs(base);
    for (const flag of [
      '--unshare-user',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--unshare-net',
      '--unshare-cgroup-try',
      '--die-with-parent',
      '--new-session',
      '--disable-userns',
    ])
      expect(args).toContain(flag);
    expect(args.join(' ')).toContain('--cap-drop ALL');
  });

  it('shares the host network only for `all`', () => {
    expect(buildBwrapArgs({ ...base, network: 'all' })).not.toContain('--unshare-net');
    expect(buildBwrapArgs({ ...base, network: 'allowlist' })).toContain('--unshare-net');
  });

  it('mounts the system read-only, gives a fresh /proc, /dev and private /tmp, and hides secrets over everything', () => {
    const args = buildBwrapArgs(base);
    expect(pairs(args, '--ro-bind')).toEqual([
      ['/usr', '/usr'],
      ['/etc', '/etc'],
      ['/proc/sys', '/proc/sys'],
      ['/dev/null', '/etc/shadow'],
    ]);
    expect(pairs(args, '--symlink')).toEqual([['usr/bin', '/bin']]);
    expect(pairs(args, '--tmpfs')).toEqual([['/tmp'], ['/etc/ssl/private']]);
    expect(args.indexOf('--proc')).toBeGreaterThan(args.indexOf('--tmpfs'));
    expect(pairs(args, '--proc')).toEqual([['/proc', '--dev']]);
    expect(args.indexOf('/dev/null')).toBeGreaterThan(args.indexOf('/etc'));
  });

  it('mounts /proc, /dev and the hidden secrets after the policy paths: a readable `/proc`, `/etc` or `/` shows no host process and no secret', () => {
    const args = buildBwrapArgs({ ...base, readablePaths: ['/', '/etc', '/proc'], writablePaths: ['/etc/ssl'] });
    const lastPolicyMount = Math.max(args.lastIndexOf('/etc'), args.lastIndexOf('/etc/ssl'), args.indexOf('/proc'));
    expect(args.indexOf('--proc')).toBeGreaterThan(lastPolicyMount);
    expect(args.indexOf('--dev')).toBeGreaterThan(lastPolicyMount);
    expect(args.indexOf('/etc/shadow')).toBeGreaterThan(lastPolicyMount);
    expect(args.indexOf('/etc/ssl/private')).toBeGreaterThan(lastPolicyMount);
  });

  it('mounts nothing inside a writable mount again (its host path could be swapped for a symlink by the sandbox)', () => {
    const args = buildBwrapArgs({
      ...base,
      workspace: '/home/u/project/ws',
      cwd: '/home/u/project/ws',
      writablePaths: ['/home/u/project', '/home/u/project/cache', '/other', '/other'],
      readablePaths: ['/home/u/project/ws/docs', '/home/u/project', '/opt/tools'],
    });
    expect(pairs(args, '--bind')).toEqual([
      ['/home/u/project', '/home/u/project'],
      ['/other', '/other'],
    ]);
    expect(pairs(args, '--ro-bind')).toContainEqual(['/opt/tools', '/opt/tools']);
    expect(pairs(args, '--ro-bind').map((pair) => pair[1])).not.toContain('/home/u/project/ws/docs');
  });

  it("sizes the sandbox's /tmp and /dev/shm to the memory limit when there is one, and makes /dev read-only", () => {
    const args = buildBwrapArgs({ ...base, tmpSizeBytes: 1_000_000 });
    expect(args.slice(args.indexOf('--size'), args.indexOf('--size') + 4)).toEqual([
      '--size',
      '1000000',
      '--tmpfs',
      '/tmp',
    ]);
    const shm = args.lastIndexOf('--size');
    expect(args.slice(shm, shm + 6)).toEqual(['--size', '1000000', '--tmpfs', '/dev/shm', '--remount-ro', '/dev']);
    // On top of bubblewrap's /dev, which would cover it.
    expect(shm).toBeGreaterThan(args.indexOf('--dev'));
    const unsized = buildBwrapArgs(base);
    expect(unsized).not.toContain('--size');
    expect(unsized).not.toContain('/dev/shm');
    expect(pairs(unsized, '--remount-ro').map((pair) => pair[0])).toEqual(['/etc/ssl/private']);
  });

  it('sets start-up variables inside the sandbox only, with --setenv', () => {
    const args = buildBwrapArgs({ ...base, setenv: { LD_PRELOAD: '/ws/lib.so' } });
    expect(pairs(args, '--setenv')).toEqual([['LD_PRELOAD', '/ws/lib.so']]);
    expect(args.indexOf('--setenv')).toBeLessThan(args.indexOf('--'));
  });

  it('binds the policy paths after /tmp, so a path under /tmp is not hidden by its tmpfs', () => {
    const args = buildBwrapArgs({ ...base, workspace: '/tmp/w', cwd: '/tmp/w', readablePaths: ['/tmp/r'] });
    expect(pairs(args, '--bind')).toEqual([['/tmp/w', '/tmp/w']]);
    const tmpfs = args.indexOf('/tmp');
    expect(args.indexOf('/tmp/w')).toBeGreaterThan(tmpfs);
    expect(args.indexOf('/tmp/r')).toBeGreaterThan(tmpfs);
  });

  it('never mounts the root, the home directory or /sys', () => {
    const args = buildBwrapArgs(base);
    const targets = [...pairs(args, '--bind'), ...pairs(args, '--ro-bind')].map((pair) => pair[1]);
    for (const forbidden of ['/', '/root', '/home', '/sys', '/srv/data', '/srv/data/conversations'])
      expect(targets).not.toContain(forbidden);
  });

  it('adds the policy paths, the runtime and the control directory, then the directory and the command', () => {
    const args = buildBwrapArgs({
      ...base,
      writablePaths: ['/cache'],
      readablePaths: ['/opt/tools'],
      runtimeFiles: ['/opt/node/bin/node'],
      control: { host: '/tmp/x-sandbox-abc', sandbox: '/run/x-sandbox' },
    });
    expect(pairs(args, '--bind')).toEqual([
      [base.workspace, base.workspace],
      ['/cache', '/cache'],
    ]);
    expect(pairs(args, '--ro-bind')).toContainEqual(['/opt/tools', '/opt/tools']);
    expect(pairs(args, '--ro-bind')).toContainEqual(['/opt/node/bin/node', '/opt/node/bin/node']);
    expect(pairs(args, '--ro-bind')).toContainEqual(['/tmp/x-sandbox-abc', '/run/x-sandbox']);
    expect(args.slice(-6)).toEqual(['--chdir', base.cwd, '--', '/bin/sh', '-c', 'echo hi']);
  });

  it('hands bubblewrap the seccomp filter by its descriptor, only when there is one', () => {
    const args = buildBwrapArgs({ ...base, seccompFd: 3 });
    expect(args.slice(args.indexOf('--seccomp'), args.indexOf('--seccomp') + 2)).toEqual(['--seccomp', '3']);
    expect(args.indexOf('--seccomp')).toBeLessThan(args.indexOf('--'));
    expect(buildBwrapArgs(base)).not.toContain('--seccomp');
  });

  it('mounts nothing again under a writable `/`', () => {
    const args = buildBwrapArgs({ ...base, writablePaths: ['/'], readablePaths: ['/opt/tools'] });
    expect(pairs(args, '--bind')).toEqual([['/', '/']]);
    expect(pairs(args, '--ro-bind').map((pair) => pair[1])).not.toContain('/opt/tools');
  });

  it('mounts the policy paths from the descriptors the launcher opened, in the order policyMounts lists them', () => {
    const paths = { workspace: '/w', writablePaths: ['/cache', '/w/inner'], readablePaths: ['/opt/tools', '/w/docs'] };
    expect(policyMounts(paths)).toEqual([
      { path: '/opt/tools', writable: false },
      { path: '/w', writable: true },
      { path: '/cache', writable: true },
    ]);
    const args = buildBwrapArgs({ ...base, ...paths, cwd: '/w', firstMountDescriptor: 4 });
    expect(pairs(args, '--ro-bind-fd')).toEqual([['4', '/opt/tools']]);
    expect(pairs(args, '--bind-fd')).toEqual([
      ['5', '/w'],
      ['6', '/cache'],
    ]);
    // None of them by its name as well, which bubblewrap would resolve again.
    expect(pairs(args, '--bind')).toEqual([]);
    expect(pairs(args, '--ro-bind').map((pair) => pair[1])).not.toContain('/opt/tools');
  });
});

// The sandbox's cgroups against hierarchies of the test's own (plain directories, written as the kernel's files
// would be), and the hierarchies found from a host's mount table: which limits are enforced where, what a command's end reports, what `kill` reaches, and which
// leftovers of a dead server are removed. The kernel's own hierarchies are test/sandbox-spawn.test.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cgroupHierarchiesIn, createSandboxCgroups, removeStaleCgroups } from './cgroups.js';

let root: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'x-cgroups-'));
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

/** Fresh parent directories for each hierarchy; `missing` names those left uncreated (mkdir under them fails). */
function hierarchies(options: { v2Controllers?: string[]; missing?: string[] } = {}) {
  const base = mkdtempSync(join(root, 'h-'));
  const dir = (name: string) => {
    const path = join(base, name);
    if (!options.missing?.includes(name)) mkdirSync(path);
    return path;
  };
  return {
    pidsV1: dir('pids'),
    memoryV1: dir('memory'),
    v2: { dir: dir('unified'), controllers: new Set(options.v2Controllers ?? []) },
  };
}

describe('createSandboxCgroups', () => {
  it('puts the limits in the v1 controllers first, and the v2 cgroup only where v1 has none', async () => {
    const found = hierarchies({ v2Controllers: ['pids', 'memory'] });
    const cgroups = await createSandboxCgroups(found, 'x-sandbox-1-aa', { processes: 20, memoryBytes: 5_000_000 });
    expect([cgroups.enforcesProcesses, cgroups.enforcesMemory]).toEqual([true, true]);
    expect(readFileSync(join(found.pidsV1, 'x-sandbox-1-aa', 'pids.max'), 'utf8')).toBe('20');
    expect(readFileSync(join(found.memoryV1, 'x-sandbox-1-aa', 'memory.limit_in_bytes'), 'utf8')).toBe('5000000');
    // The v2 cgroup is made all the same (to kill the whole tree in one step), but holds no limit twice.
    expect(readdirSync(join(found.v2.dir, 'x-sandbox-1-aa'))).toEqual([]);
    expect(cgroups.procsFiles).toEqual([
      { file: join(found.pidsV1, 'x-sandbox-1-aa', 'cgroup.procs'), required: true },
      { file: join(found.memoryV1, 'x-sandbox-1-aa', 'cgroup.procs'), required: true },
      { file: join(found.v2.dir, 'x-sandbox-1-aa', 'cgroup.procs'), required: false },
    ]);
  });

  it('puts a limit in the v2 cgroup where its controller is there, and writes none the policy does not have', async () => {
    const found = hierarchies({ v2Controllers: ['pids', 'memory'], missing: ['pids', 'memory'] });
    const limited = await createSandboxCgroups(found, 'x-sandbox-1-bb', { processes: 7, memoryBytes: 9_000_000 });
    expect([limited.enforcesProcesses, limited.enforcesMemory]).toEqual([true, true]);
    const dir = join(found.v2.dir, 'x-sandbox-1-bb');
    expect(readFileSync(join(dir, 'pids.max'), 'utf8')).toBe('7');
    expect(readFileSync(join(dir, 'memory.max'), 'utf8')).toBe('9000000');
    expect(readFileSync(join(dir, 'memory.swap.max'), 'utf8')).toBe('0');
    expect(limited.procsFiles).toEqual([{ file: join(dir, 'cgroup.procs'), required: true }]);

    const unlimited = await createSandboxCgroups(found, 'x-sandbox-1-cc', {});
    expect([unlimited.enforcesProcesses, unlimited.enforcesMemory]).toEqual([false, false]);
    expect(readdirSync(join(found.v2.dir, 'x-sandbox-1-cc'))).toEqual([]);
    expect(unlimited.procsFiles).toEqual([
      { file: join(found.v2.dir, 'x-sandbox-1-cc', 'cgroup.procs'), required: false },
    ]);
  });

  it('leaves out a hierarchy it cannot create a cgroup in, and enforces nothing there, without failing', async () => {
    const found = hierarchies({ v2Controllers: ['pids', 'memory'], missing: ['pids', 'memory', 'unified'] });
    const cgroups = await createSandboxCgroups(found, 'x-sandbox-1-dd', { processes: 5, memoryBytes: 1_000_000 });
    expect(cgroups).toMatchObject({ enforcesProcesses: false, enforcesMemory: false, procsFiles: [] });
    await cgroups.kill();
    await cgroups.release();
    expect(await cgroups.limitsHit()).toEqual({ processes: false, memory: false });
  });
});

describe('limitsHit', () => {
  it('reports a limit only once its counter is past zero', async () => {
    const found = hierarchies({ v2Controllers: ['pids', 'memory'], missing: ['memory'] });
    const cgroups = await createSandboxCgroups(found, 'x-sandbox-1-ee', { processes: 5, memoryBytes: 1_000_000 });
    const pidsEvents = join(found.pidsV1, 'x-sandbox-1-ee', 'pids.events');
    const memoryEvents = join(found.v2.dir, 'x-sandbox-1-ee', 'memory.events');
    expect(await cgroups.limitsHit()).toEqual({ processes: false, memory: false });
    writeFileSync(pidsEvents, 'max 0\n');
    writeFileSync(memoryEvents, 'low 0\nhigh 0\nmax 4\noom 1\noom_kill 0\n');
    expect(await cgroups.limitsHit()).toEqual({ processes: false, memory: false });
    writeFileSync(memoryEvents, 'low 0\nhigh 0\nmax 4\noom 1\noom_kill 1\n');
    expect(await cgroups.limitsHit()).toEqual({ processes: false, memory: true });
    writeFileSync(pidsEvents, 'max 12\n');
    expect(await cgroups.limitsHit()).toEqual({ processes: true, memory: true });
  });
});

describe('kill', () => {
  it('kills every process listed in the cgroups, and asks a v2 cgroup to kill its own (forks in flight too)', async () => {
    const found = hierarchies({ v2Controllers: ['pids'] });
    const cgroups = await createSandboxCgroups(found, 'x-sandbox-1-ff', { processes: 5 });
    const sleeper = spawn('/bin/sleep', ['1000'], { stdio: 'ignore' });
    children.push(sleeper);
    const ended = new Promise((resolve) => sleeper.once('exit', (_code, signal) => resolve(signal)));
    writeFileSync(join(found.pidsV1, 'x-sandbox-1-ff', 'cgroup.procs'), `${sleeper.pid}\n`);
    await cgroups.kill();
    expect(await ended).toBe('SIGKILL');
    expect(readFileSync(join(found.v2.dir, 'x-sandbox-1-ff', 'cgroup.kill'), 'utf8')).toBe('1');
  });
});

describe('removeStaleCgroups', () => {
  it("removes the sandbox cgroups of a server that is gone, and leaves a live server's and any other", async () => {
    const found = hierarchies();
    const pidMax = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
    const names = {
      dead: `x-sandbox-${pidMax + 1}-0a1b2c`,
      live: `x-sandbox-${process.pid}-0a1b2c`,
      other: 'x-sandbox-system',
    };
    for (const parent of [found.pidsV1, found.memoryV1, found.v2.dir])
      for (const name of Object.values(names)) mkdirSync(join(parent, name));
    await removeStaleCgroups(found);
    for (const parent of [found.pidsV1, found.memoryV1, found.v2.dir]) {
      expect(existsSync(join(parent, names.dead)), parent).toBe(false);
      expect(readdirSync(parent).sort()).toEqual([names.live, names.other].sort());
    }
  });
});

describe('cgroupHierarchiesIn', () => {
  it('finds the v1 pids and memory directories of this process, and the v2 one with its controllers', () => {
    // A hybrid host (v1 controllers and a v2 `unified` mount), this process in a memory cgroup of its own.
    const mountinfo = [
      '31 23 0:28 / /sys/fs/cgroup rw,relatime shared:9 - tmpfs tmpfs rw,mode=755',
      '32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:10 - cgroup cgroup rw,cpu,cpuacct',
      '35 31 0:32 / /sys/fs/cgroup/memory rw,relatime shared:13 - cgroup cgroup rw,memory',
      '38 31 0:35 / /sys/fs/cgroup/pids rw,nosuid shared:16 - cgroup cgroup rw,pids',
      '40 31 0:37 / /sys/fs/cgroup/unified rw,relatime shared:18 - cgroup2 cgroup2 rw,nsdelegate',
      '41 23 0:38 / /proc rw,relatime - proc proc rw',
    ].join('\n');
    const memberships = ['9:name=systemd:/', '8:pids:/agents', '4:memory:/process_api/3118', '2:cpu,cpuacct:/', '0::/'];
    const asked: string[] = [];
    const found = cgroupHierarchiesIn({
      mountinfo,
      memberships: `${memberships.join('\n')}\n`,
      subtreeControl: (dir) => {
        asked.push(dir);
        return 'cpu memory pids\n';
      },
    });
    expect(found).toEqual({
      pidsV1: '/sys/fs/cgroup/pids/agents',
      memoryV1: '/sys/fs/cgroup/memory/process_api/3118',
      v2: { dir: '/sys/fs/cgroup/unified', controllers: new Set(['cpu', 'memory', 'pids']) },
    });
    expect(asked).toEqual(['/sys/fs/cgroup/unified']);
  });

  it("takes a mount's root into account (a container sees only its own subtree), and a v2 it cannot read", () => {
    const found = cgroupHierarchiesIn({
      mountinfo: [
        '50 40 0:44 /docker/abc /sys/fs/cgroup/pids ro,nosuid - cgroup cgroup rw,pids',
        '60 40 0:45 /kubepods/pod1 /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw',
      ].join('\n'),
      memberships: '5:pids:/docker/abc/server\n0::/kubepods/pod1/server\n',
      subtreeControl: () => {
        throw new Error('EACCES');
      },
    });
    expect(found).toEqual({
      pidsV1: '/sys/fs/cgroup/pids/server',
      v2: { dir: '/sys/fs/cgroup/server', controllers: new Set() },
    });
  });

  it('finds nothing where this process is in no cgroup of a mounted hierarchy', () => {
    const found = cgroupHierarchiesIn({
      mountinfo: [
        '38 31 0:35 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids',
        '40 31 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
      ].join('\n'),
      // No `0::` line: a v1-only host's process, with a v2 mount it is in no cgroup of.
      memberships: '4:memory:/\n',
      subtreeControl: () => '',
    });
    expect(found).toEqual({});
  });
});

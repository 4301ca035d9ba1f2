import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** The cgroup directories this process may create children under, found from its own mounts. */
export interface CgroupHierarchies {
  /** cgroup v1 `pids` controller: this process's own cgroup directory there. */
  pidsV1?: string;
  /** cgroup v1 `memory` controller: this process's own cgroup directory there. */
  memoryV1?: string;
  /** cgroup v2: this process's own cgroup directory, and the controllers its children may use. */
  v2?: { dir: string; controllers: ReadonlySet<string> };
}

/** What one sandboxed command's cgroups enforce and report. */
export interface SandboxCgroups {
  /**
   * `cgroup.procs` files the wrapper writes its pid to before it becomes bubblewrap. `required`: the cgroup
   * enforces a limit, so failing to join it must fail the command rather than run it unlimited.
   */
  readonly procsFiles: readonly { file: string; required: boolean }[];
  readonly enforcesProcesses: boolean;
  readonly enforcesMemory: boolean;
  /** Whether a limit was hit (a fork refused at pids.max; a process OOM-killed at the memory limit). */
  limitsHit(): Promise<{ processes: boolean; memory: boolean }>;
  /**
   * Kills every process in the cgroups now (they stay, for `limitsHit`): the sandbox's end that depends neither on
   * its process group nor on bubblewrap's parent-death signal.
   */
  kill(): Promise<void>;
  /** Kills every process still in the cgroups, then removes them. */
  release(): Promise<void>;
}

function parseMountinfo(text: string): { root: string; mountPoint: string; type: string; superOptions: string[] }[] {
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      const [before = '', after = ''] = line.split(' - ');
      const fields = before.split(' ');
      const [type = '', , superOptions = ''] = after.split(' ');
      return { root: fields[3] ?? '', mountPoint: fields[4] ?? '', type, superOptions: superOptions.split(',') };
    });
}

/** Reads /proc/self/mountinfo and /proc/self/cgroup; empty where they do not exist (not Linux). */
export function discoverCgroupHierarchies(): CgroupHierarchies {
  let mountinfo: string;
  let memberships: string;
  try {
    mountinfo = readFileSync('/proc/self/mountinfo', 'utf8');
    memberships = readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return {};
  }
  return cgroupHierarchiesIn({
    mountinfo,
    memberships,
    subtreeControl: (dir) => readFileSync(join(dir, 'cgroup.subtree_control'), 'utf8'),
  });
}

/**
 * This process's own cgroup directories, from its mount table (`/proc/self/mountinfo`) and memberships
 * (`/proc/self/cgroup`); `subtreeControl` reads a v2 directory's `cgroup.subtree_control` (it may throw).
 */
export function cgroupHierarchiesIn(host: {
  mountinfo: string;
  memberships: string;
  subtreeControl: (dir: string) => string;
}): CgroupHierarchies {
  const mounts = parseMountinfo(host.mountinfo);
  const memberships = host.memberships.split('\n');
  const ownPath = (controller: string | undefined): string | undefined => {
    for (const line of memberships) {
      const [id, controllers = '', path] = line.split(':');
      if (path === undefined) continue;
      if (controller === undefined ? id === '0' && controllers === '' : controllers.split(',').includes(controller))
        return path;
    }
    return undefined;
  };
  const found: CgroupHierarchies = {};
  for (const mount of mounts) {
    if (mount.type === 'cgroup') {
      for (const controller of ['pids', 'memory'] as const) {
        const path = ownPath(controller);
        if (!mount.superOptions.includes(controller) || path === undefined) continue;
        const dir = join(mount.mountPoint, relative(mount.root, path));
        if (controller === 'pids') found.pidsV1 ??= dir;
        else found.memoryV1 ??= dir;
      }
    } else if (mount.type === 'cgroup2' && found.v2 === undefined) {
      const path = ownPath(undefined);
      if (path === undefined) continue;
      const dir = join(mount.mountPoint, relative(mount.root, path));
      let controllers: string[] = [];
      try {
        controllers = host.subtreeControl(dir).trim().split(/\s+/);
      } catch {
        // Unreadable: no controllers for children, the cgroup still serves to find and kill processes.
      }
      found.v2 = { dir, controllers: new Set(controllers.filter((name) => name.length > 0)) };
    }
  }
  return found;
}

async function tryWrite(file: string, value: string): Promise<boolean> {
  try {
    await writeFile(file, value);
    return true;
  } catch {
    return false;
  }
}

async function counter(file: string, key: string): Promise<number> {
  try {
    const text = await readFile(file, 'utf8');
    const line = text.split('\n').find((entry) => entry.startsWith(`${key} `));
    return line === undefined ? 0 : Number.parseInt(line.slice(key.length + 1), 10) || 0;
  } catch {
    return 0;
  }
}

async function pidsIn(dir: string): Promise<number[]> {
  try {
    const text = await readFile(join(dir, 'cgroup.procs'), 'utf8');
    return text
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => Number.parseInt(line, 10));
  } catch {
    return [];
  }
}

async function removeWhenEmpty(dir: string): Promise<void> {
  // A killed process leaves the cgroup only once reaped; rmdir says EBUSY until then.
  for (let attempt = 0; attempt < 200; attempt += 1) {
    for (const pid of await pidsIn(dir)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    try {
      await rmdir(dir);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      if (code !== 'EBUSY') return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Creates one cgroup per usable hierarchy for a command, named `name`, with its limits written. Each
 * hierarchy is best effort: one that cannot be created (read-only /sys/fs/cgroup, not root) is left out, and
 * `enforcesProcesses` / `enforcesMemory` say what remains.
 */
export async function createSandboxCgroups(
  hierarchies: CgroupHierarchies,
  name: string,
  limits: { processes?: number; memoryBytes?: number },
): Promise<SandboxCgroups> {
  const dirs: string[] = [];
  const enforcing = new Set<string>();
  let enforcesProcesses = false;
  let enforcesMemory = false;
  const events: { file: string; key: string }[] = [];
  const make = async (parent: string): Promise<string | undefined> => {
    const dir = join(parent, name);
    try {
      await mkdir(dir);
    } catch {
      return undefined;
    }
    dirs.push(dir);
    return dir;
  };
  if (hierarchies.pidsV1 !== undefined && limits.processes !== undefined) {
    const dir = await make(hierarchies.pidsV1);
    if (dir !== undefined && (await tryWrite(join(dir, 'pids.max'), String(limits.processes)))) {
      enforcesProcesses = true;
      enforcing.add(dir);
      events.push({ file: join(dir, 'pids.events'), key: 'max' });
    }
  }
  if (hierarchies.memoryV1 !== undefined && limits.memoryBytes !== undefined) {
    const dir = await make(hierarchies.memoryV1);
    if (dir !== undefined && (await tryWrite(join(dir, 'memory.limit_in_bytes'), String(limits.memoryBytes)))) {
      // Without swap accounting the limit holds anyway; with it, swap must not extend it.
      await tryWrite(join(dir, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes));
      enforcesMemory = true;
      enforcing.add(dir);
      events.push({ file: join(dir, 'memory.oom_control'), key: 'oom_kill' });
    }
  }
  let v2Dir: string | undefined;
  if (hierarchies.v2 !== undefined) {
    v2Dir = await make(hierarchies.v2.dir);
    const { controllers } = hierarchies.v2;
    if (v2Dir !== undefined && !enforcesProcesses && limits.processes !== undefined && controllers.has('pids')) {
      if (await tryWrite(join(v2Dir, 'pids.max'), String(limits.processes))) {
        enforcesProcesses = true;
        enforcing.add(v2Dir);
        events.push({ file: join(v2Dir, 'pids.events'), key: 'max' });
      }
    }
    if (v2Dir !== undefined && !enforcesMemory && limits.memoryBytes !== undefined && controllers.has('memory')) {
      if (await tryWrite(join(v2Dir, 'memory.max'), String(limits.memoryBytes))) {
        await tryWrite(join(v2Dir, 'memory.swap.max'), '0');
        enforcesMemory = true;
        enforcing.add(v2Dir);
        events.push({ file: join(v2Dir, 'memory.events'), key: 'oom_kill' });
      }
    }
  }
  let released = false;
  return {
    procsFiles: dirs.map((dir) => ({ file: join(dir, 'cgroup.procs'), required: enforcing.has(dir) })),
    enforcesProcesses,
    enforcesMemory,
    async limitsHit() {
      let processes = false;
      let memory = false;
      for (const event of events) {
        if ((await counter(event.file, event.key)) === 0) continue;
        if (event.key === 'max') processes = true;
        else memory = true;
      }
      return { processes, memory };
    },
    async kill() {
      if (v2Dir !== undefined) await tryWrite(join(v2Dir, 'cgroup.kill'), '1');
      for (const dir of dirs) {
        for (const pid of await pidsIn(dir)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Gone already.
          }
        }
      }
    },
    async release() {
      if (released) return;
      released = true;
      // cgroup v2 kills the whole cgroup in one step, forks in flight included.
      if (v2Dir !== undefined) await tryWrite(join(v2Dir, 'cgroup.kill'), '1');
      await Promise.all(dirs.map((dir) => removeWhenEmpty(dir)));
    },
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the empty cgroups left by a server that died before releasing them (named after its pid). A cgroup
 * still holding processes is left alone (rmdir refuses it).
 */
export async function removeStaleCgroups(hierarchies: CgroupHierarchies): Promise<void> {
  const parents = [hierarchies.pidsV1, hierarchies.memoryV1, hierarchies.v2?.dir];
  for (const parent of parents) {
    if (parent === undefined) continue;
    let names: string[];
    try {
      names = await readdir(parent);
    } catch {
      continue;
    }
    for (const name of names) {
      const owner = /^x-sandbox-(\d+)-[0-9a-f]+$/.exec(name)?.[1];
      if (owner === undefined || isAlive(Number.parseInt(owner, 10))) continue;
      await rmdir(join(parent, name)).catch(() => undefined);
    }
  }
}

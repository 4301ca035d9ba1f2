import { readdirSync, readFileSync } from 'node:fs';

function signalQuietly(target: number, signal: NodeJS.Signals): void {
  try {
    process.kill(target, signal);
  } catch {
    // Already gone (or never ours).
  }
}

/** Every live descendant of `root`, read from /proc (Linux); empty where /proc does not exist. */
export function descendantPids(root: number): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so read after the last `)`.
    const parent = Number.parseInt(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? '', 10);
    const list = children.get(parent);
    if (list === undefined) children.set(parent, [Number.parseInt(name, 10)]);
    else list.push(Number.parseInt(name, 10));
  }
  const found: number[] = [];
  const queue = [root];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/**
 * Kills a process started `detached` (the leader of its own process group) with everything it started: the
 * group, and the descendants that left it (`setsid cmd &`, a job that made its own group). The tree is frozen
 * first (SIGSTOP) so that nothing forks between the scan and the kill. A process that both left the group and
 * was orphaned before this call (a daemon that double-forked) is no longer anyone's descendant and survives.
 */
export function killProcessTree(pid: number): void {
  signalQuietly(-pid, 'SIGSTOP');
  const first = descendantPids(pid);
  for (const child of first) signalQuietly(child, 'SIGSTOP');
  const all = new Set([...first, ...descendantPids(pid)]);
  signalQuietly(-pid, 'SIGKILL');
  for (const child of all) {
    // A descendant that leads its own group takes its group along.
    signalQuietly(-child, 'SIGKILL');
    signalQuietly(child, 'SIGKILL');
  }
}

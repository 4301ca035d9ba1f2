import { readdir, readFile, readlink } from 'node:fs/promises';

/** A shell command printing the PID namespace it runs in (`pid:[4026531836]`), as the host names it too. */
export const PRINT_PID_NAMESPACE = 'readlink /proc/self/ns/pid';

/**
 * The host pids of processes known by their pids inside a PID namespace (what `$$` and `$!` say inside a sandbox),
 * in the same order; throws naming a pid no live process has. In the host's own namespace a pid maps to itself.
 */
export async function hostPids(namespace: string, pids: readonly number[]): Promise<number[]> {
  const found = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if ((await readlink(`/proc/${name}/ns/pid`)) !== namespace.trim()) continue;
      const status = await readFile(`/proc/${name}/status`, 'utf8');
      const line = /^NSpid:\s+(.*)$/m.exec(status)?.[1];
      const inside = Number(line?.trim().split(/\s+/).at(-1));
      if (pids.includes(inside)) found.set(inside, Number(name));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids.map((pid) => {
    const host = found.get(pid);
    if (host === undefined) throw new Error(`no live process has pid ${pid} in ${namespace.trim()}`);
    return host;
  });
}

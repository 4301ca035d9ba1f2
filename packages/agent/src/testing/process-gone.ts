import { readFile } from 'node:fs/promises';

/**
 * True when the process no longer runs: absent from /proc, or a zombie waiting to be reaped (Linux). Tests of
 * tools that start processes use it to prove that nothing outlives a close.
 */
export async function processGone(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/**
 * Waits (polling /proc every 50 ms) until every pid is gone; resolves with the pids still running when `attempts`
 * run out (an empty array: all gone). The default, 1 200 attempts (a minute and more), leaves a loaded machine
 * all the time it needs to end the processes: a test waits only as long as they really take.
 */
export async function waitUntilGone(pids: readonly number[], attempts = 1200): Promise<number[]> {
  let alive = [...pids];
  for (let attempt = 0; attempt < attempts && alive.length > 0; attempt += 1) {
    const states = await Promise.all(alive.map(processGone));
    alive = alive.filter((_, index) => !states[index]);
    if (alive.length > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return alive;
}

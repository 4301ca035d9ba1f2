import { open } from 'node:fs/promises';

/** What `open-log-child.ts` prints (as JSON) for the parent bench. */
export interface OpenMeasurement {
  readonly events: number;
  readonly openMs: number;
  readonly lastHundredMs: number;
  readonly rssBeforeMb: number;
  readonly rssAfterMb: number;
  readonly heapBeforeMb: number;
  readonly heapAfterGcMb: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** fsync of a directory, so a new entry in it survives a power loss (what the local store does with 'fsync'). */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Drops the page cache (`echo 1 > /proc/sys/vm/drop_caches`) so the next read is a cold one. Needs
 * root on Linux; elsewhere (or in a container that forbids it) it reports why it could not.
 */
export async function dropPageCache(): Promise<{ dropped: true } | { dropped: false; reason: string }> {
  try {
    const { execFileSync } = await import('node:child_process');
    execFileSync('sync');
    const { writeFile } = await import('node:fs/promises');
    await writeFile('/proc/sys/vm/drop_caches', '1');
    return { dropped: true };
  } catch (error) {
    return { dropped: false, reason: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}

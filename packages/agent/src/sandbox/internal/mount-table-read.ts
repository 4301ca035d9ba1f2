import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';

/** Where this process reads its mount table (`proc(5)`: one line per mount). */
const MOUNTINFO = '/proc/self/mountinfo';

/** How the table is read from the file: replaced by tests that count the reads of a command. */
export const mountInfoFile = { read: (): string => readFileSync(MOUNTINFO, 'utf8') };

/** One read of the table, shared by the checks of one command while `live` (the command's setup is under way). */
interface SharedRead {
  mountinfo: string | undefined;
  live: boolean;
}

const sharedRead = new AsyncLocalStorage<SharedRead>();

/**
 * This process's mount table as text, or undefined where it cannot be read (no /proc): the read `withMountTableRead`
 * shares while its work runs, else a read of its own.
 */
export function readMountInfo(): string | undefined {
  const shared = sharedRead.getStore();
  return shared?.live === true ? shared.mountinfo : readMountInfoFile();
}

/**
 * Runs `work` (one command's setup) on one read of the mount table: every `readMountInfo` in it, across its awaits,
 * answers that read, so the checks of a command (the store's guard, the private root's) judge one and the same table,
 * read once; inside another such work, the outer read. The sharing ends when `work` settles: what it left running
 * (a process's handlers) inherits the scope, and reads afresh.
 */
export function withMountTableRead<T>(work: (mountinfo: string | undefined) => T): T {
  const outer = sharedRead.getStore();
  if (outer?.live === true) return work(outer.mountinfo);
  const read: SharedRead = { mountinfo: readMountInfoFile(), live: true };
  let result: T;
  try {
    result = sharedRead.run(read, () => work(read.mountinfo));
  } catch (error) {
    read.live = false;
    throw error;
  }
  if (!(result instanceof Promise)) {
    read.live = false;
    return result;
  }
  return result.finally(() => {
    read.live = false;
  }) as T;
}

function readMountInfoFile(): string | undefined {
  try {
    return mountInfoFile.read();
  } catch {
    return undefined;
  }
}

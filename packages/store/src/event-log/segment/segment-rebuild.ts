import { readBytes } from '../../chain/read-bytes.js';
import type { LogCore } from '../log-core.js';
import { isUnfinishedCopy } from '../unfinished-file.js';
import { type SegmentLog, writeEventFiles } from './segment-log.js';

/**
 * Rebuilds, from the segment, the event files a crash or power loss left missing, empty or cut short (they are
 * written after the segment commits, without fsync). Where the store tells sizes (`fileSizes`: the local store,
 * an lstat per file), only the files whose size is not the record's are read; elsewhere (memory) only missing
 * ones are found, from one listing. A file holding other bytes is left for `verifyChain` to report.
 */
export async function rebuildEventFiles(core: LogCore, segment: SegmentLog): Promise<number> {
  if (!core.rollsForward || core.length === 0) return 0;
  const paths = Array.from({ length: core.length }, (_, index) => core.paths.at(index)!);
  let suspects: number[];
  if (core.store.fileSizes) {
    const sizes = await core.store.fileSizes(paths);
    suspects = [];
    sizes.forEach((size, index) => {
      if (size !== segment.jsonLengthOf(index)) suspects.push(index);
    });
  } else {
    const listed = new Set(await core.store.list(core.dir));
    suspects = paths.flatMap((path, index) => (listed.has(path) ? [] : [index]));
  }
  if (suspects.length === 0) return 0;
  const found = await readBytes(
    core.store,
    suspects.map((index) => paths[index]),
  );
  const rebuilt: { path: string; data: Uint8Array; index: number }[] = [];
  for (const [position, index] of suspects.entries()) {
    const bytes = await segment.bytesOf(index);
    const current = found[position];
    if (current instanceof Uint8Array && !isUnfinishedCopy(current, bytes)) continue;
    rebuilt.push({ path: paths[index]!, data: bytes, index });
  }
  if (rebuilt.length > 0) {
    core.logger?.warn(
      `${core.store.describe(core.dir)}: the event files of events ${rebuilt.map((file) => file.index).join(', ')} were missing or left unfinished by a crash; rebuilt from the segment`,
    );
  }
  await writeEventFiles(core, rebuilt);
  return rebuilt.length;
}

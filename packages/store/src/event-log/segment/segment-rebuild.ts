import { readBytes } from '../../chain/read-bytes.js';
import type { LogCore } from '../log-core.js';
import { isUnfinishedCopy } from '../unfinished-file.js';
import { type SegmentLog, writeEventFiles } from './segment-log.js';

/** Event files checked per `fileSizes` call. */
const SIZE_CHUNK = 256;

/**
 * Rebuilds, from the segment, the event files a crash or power loss left missing, empty or cut short (they are
 * written after the segment commits, without fsync). Where the store tells sizes (`fileSizes`: the local store,
 * an lstat per file), only the files whose size is not the record's are read; elsewhere (memory) only missing
 * ones are found, from one listing. A file holding other bytes is left for `verifyChain` to report.
 */
export async function rebuildEventFiles(core: LogCore, segment: SegmentLog): Promise<number> {
  if (!core.rollsForward || core.length === 0) return 0;
  // The events this open found: those appended later have their files written by their appends.
  const count = core.length;
  let suspects: number[] = [];
  const paths: string[] = [];
  if (core.store.fileSizes) {
    // In chunks, yielding between them: the local store lstats synchronously, and a resume's first reads must not
    // wait behind 100k of them (they run after `open` resolved).
    for (let from = 0; from < count; from += SIZE_CHUNK) {
      const chunk = Array.from({ length: Math.min(SIZE_CHUNK, count - from) }, (_, k) => core.paths.at(from + k)!);
      const sizes = await core.store.fileSizes(chunk);
      sizes.forEach((size, k) => {
        if (size !== segment.jsonLengthOf(from + k)) suspects.push(from + k);
      });
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const index of suspects) paths[index] = core.paths.at(index)!;
  } else {
    const listed = new Set(await core.store.list(core.dir));
    for (let index = 0; index < count; index++) paths[index] = core.paths.at(index)!;
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

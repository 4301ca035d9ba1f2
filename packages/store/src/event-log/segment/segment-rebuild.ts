import { readBytes } from '../../chain/read-bytes.js';
import type { LogCore } from '../log-core.js';
import { isUnfinishedCopy } from '../unfinished-file.js';
import { SIZE_CHUNK, writeEventFiles } from './derived-event-files.js';
import type { SegmentLog } from './segment-log.js';

/**
 * Rebuilds, from the segment, the event files a crash or power loss left missing, empty or cut short (they are
 * written after the segment commits, without fsync). Where the store tells sizes (`fileSizes`: the local store,
 * an lstat per file), only the files whose size is not the record's are read; elsewhere (memory) only missing
 * ones are found, from one listing. A file holding other bytes is left for `verifyChain` to report. Where the
 * segment index says the first event files were seen whole in the segment's current scope (this boot, this
 * inode: see `AppendFile.scope`), those are not looked at again; `segment.files.checked` ends past every file
 * found whole or rebuilt, up to the first that is not.
 */
export async function rebuildEventFiles(core: LogCore, segment: SegmentLog): Promise<number> {
  // A log opened read-only past damage writes nothing.
  if (!core.rollsForward || segment.readOnly || core.length === 0) return 0;
  // The events this open found: those appended later have their files written by their appends.
  const count = core.length;
  const files = segment.files;
  const first = files.checked;
  let suspects: number[] = [];
  const paths: string[] = [];
  if (core.store.fileSizes) {
    // In chunks, yielding between them: the local store lstats synchronously, and a resume's first reads must not
    // wait behind 100k of them (they run after `open` resolved).
    for (let from = first; from < count; from += SIZE_CHUNK) {
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
    for (let index = first; index < count; index++) paths[index] = core.paths.at(index)!;
    suspects = paths.flatMap((path, index) => (listed.has(path) ? [] : [index]));
  }
  if (suspects.length === 0) {
    files.advance(count);
    return 0;
  }
  const found = await readBytes(
    core.store,
    suspects.map((index) => paths[index]),
  );
  const rebuilt: { path: string; data: Uint8Array; index: number }[] = [];
  /** The first file left as it is (other bytes): the next open looks at it again. */
  let kept = count;
  for (const [position, index] of suspects.entries()) {
    const bytes = await segment.bytesOf(index);
    const current = found[position];
    if (current instanceof Uint8Array && !isUnfinishedCopy(current, bytes)) {
      kept = Math.min(kept, index);
      continue;
    }
    rebuilt.push({ path: paths[index]!, data: bytes, index });
  }
  if (rebuilt.length > 0) {
    core.logger?.warn(
      `${core.store.describe(core.dir)}: the event files of events ${rebuilt.map((file) => file.index).join(', ')} were missing or left unfinished by a crash; rebuilt from the segment`,
    );
  }
  const written = await writeEventFiles(core, rebuilt);
  const whole = written ? kept : Math.min(kept, rebuilt[0]?.index ?? count);
  files.advance(whole);
  return rebuilt.length;
}

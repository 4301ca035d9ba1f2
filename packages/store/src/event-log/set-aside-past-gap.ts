import type { SetAsidePastGap } from './event-log-like.js';
import { padIndex, parseEventFileIndex } from './file-names.js';
import type { LogCore } from './log-core.js';
import { relist } from './log-discovery.js';

/** A slot claim's name (`00012.json`) in `.slots/`. */
const CLAIM_NAME = /(?:^|\/)(\d{5,})\.json$/;

/**
 * Moves what lies past the log's gap (a missing index no slot claim fills, with event files after it) to
 * `<dir>-past-gap-<missing>/`, in the same layout: the event files at or past the missing index, and in `.slots/`
 * their claims and staged bodies (a claim left there would hand its old event to the append that reaches its slot).
 * Everything is copied before anything is deleted, and the claims are deleted before the event files, so a crash
 * part way leaves a log that still has its gap (the move can be run again) and never one whose appends meet an old
 * claim. Then the directory is listed again: the log ends at the missing index and takes appends. Undefined when
 * the last listing found no gap.
 */
export async function setAsidePastGap(core: LogCore): Promise<SetAsidePastGap | undefined> {
  if (core.segment !== undefined) return undefined;
  await relist(core, false);
  if (core.filesPastGap === 0) return undefined;
  const { store, dir } = core;
  const missingIndex = core.length;
  const movedTo = `${dir}-past-gap-${padIndex(missingIndex)}`;
  const eventFiles = (await store.list(dir)).filter((path) => parseEventFileIndex(path) >= missingIndex);
  const slots = (await store.list(`${dir}/.slots`)).filter((path) => {
    const claim = CLAIM_NAME.exec(path);
    return (claim === null ? parseEventFileIndex(path) : Number(claim[1])) >= missingIndex;
  });
  const moved = [...slots, ...eventFiles];
  for (const path of moved) await store.copy(path, `${movedTo}${path.slice(dir.length)}`);
  for (const path of moved) await store.delete(path);
  await relist(core, false);
  core.logger?.warn(
    `${store.describe(dir)}: index ${missingIndex} was missing; ${eventFiles.length} event file(s) past it were moved with their slot claims to ${store.describe(movedTo)}, and the log goes on from index ${missingIndex}`,
  );
  return { missingIndex, movedTo, eventFiles };
}

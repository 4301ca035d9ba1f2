import { eventIdOfPath } from '../event-log/file-names.js';
import { packHeaderOf } from '../event-log/pack-format.js';
import type { FileStore } from '../file-store.js';
import { readBytes } from './read-bytes.js';

const PACK_NAME = /(?:^|\/)\d{5,}\.pack$/;
const COMMA = 0x2c;
const OPEN = 0x5b;
const CLOSE = 0x5d;

/** A pack that readers would use but whose events are not the event files' bytes. */
export interface PackMismatch {
  readonly index: number;
  readonly id: string;
  readonly message: string;
}

/**
 * Checks the packed read cache (`<dir>/.slots/packs/`, see `event-log/packs.ts`) against the event files
 * `verifyEventChain` just verified: every pack a reader would use (its header's names equal the files' names
 * and its checksum matches) must hold exactly each file's bytes (or its text as a JSON string), so what
 * `range` serves from packs is what the verified files hold. Packs readers would ignore are not problems.
 * `names[i]` is the event file's path at index i, `eventBytes(i)` its verified bytes.
 */
export async function findPackMismatch(
  store: FileStore,
  dir: string,
  names: readonly (string | undefined)[],
  eventBytes: (index: number) => Uint8Array | undefined,
): Promise<PackMismatch | undefined> {
  const packs = (await store.list(`${dir}/.slots/packs`)).filter((path) => PACK_NAME.test(path));
  if (packs.length === 0) return undefined;
  const read = await readBytes(store, packs);
  for (const [position, path] of packs.entries()) {
    const data = read[position];
    if (!(data instanceof Uint8Array)) continue;
    const pack = packHeaderOf(data);
    if (pack === undefined || !namesMatch(pack.names, pack.start, names)) continue;
    const index = mismatchIn(pack.body, pack.start, pack.names.length, eventBytes);
    if (index === undefined) continue;
    return {
      index,
      id: eventIdOfPath(names[index]!),
      message: `event ${index} (${eventIdOfPath(names[index]!)}) differs in the packed read cache ${store.describe(path)} from its event file`,
    };
  }
  return undefined;
}

function namesMatch(packNames: readonly string[], start: number, names: readonly (string | undefined)[]): boolean {
  if (start + packNames.length > names.length) return false;
  for (let k = 0; k < packNames.length; k++) {
    const path = names[start + k];
    if (path === undefined || path.slice(path.lastIndexOf('/') + 1) !== packNames[k]) return false;
  }
  return true;
}

/** The first index whose element in `body` is not its file's bytes (nor its text as a JSON string). */
function mismatchIn(
  body: Buffer,
  start: number,
  count: number,
  eventBytes: (index: number) => Uint8Array | undefined,
): number | undefined {
  if (body[0] !== OPEN) return start;
  let at = 1;
  for (let k = 0; k < count; k++) {
    const file = eventBytes(start + k);
    if (file === undefined) return start + k;
    const element = matches(body, at, file)
      ? file.length
      : matchLength(body, at, Buffer.from(JSON.stringify(Buffer.from(file).toString('utf8')), 'utf8'));
    if (element === undefined) return start + k;
    at += element;
    if (body[at] !== (k === count - 1 ? CLOSE : COMMA)) return start + k;
    at++;
  }
  return at === body.length ? undefined : start + count - 1;
}

function matches(body: Buffer, at: number, expected: Uint8Array): boolean {
  return at + expected.length <= body.length && body.subarray(at, at + expected.length).equals(expected);
}

function matchLength(body: Buffer, at: number, expected: Uint8Array): number | undefined {
  return matches(body, at, expected) ? expected.length : undefined;
}

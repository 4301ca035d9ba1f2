import type { FileStore } from '@x/store';
import { InvalidArtifactNameError } from './session-errors.js';

/** True when `name` has a control character (code points below 0x20, and 0x7f). */
const hasControlCharacter = (name: string): boolean =>
  [...name].some((char) => (char.codePointAt(0) ?? 0) < 0x20 || char.codePointAt(0) === 0x7f);

/** With the `u` flag a surrogate pair is one code point, so this matches only unpaired halves. */
const loneSurrogate = /\p{Surrogate}/u;

/** The longest file name of POSIX file systems, in bytes: the URI-encoded name is one path segment. */
const maxEncodedLength = 255;

/**
 * Checks an artifact name: 1–200 characters, no slash, backslash, control character or lone surrogate, not `.`,
 * `..` or `__proto__`, and at most 255 characters URI-encoded. Every name that passes is one file on every store.
 */
export function assertArtifactName(name: string): void {
  if (typeof name !== 'string' || name.length === 0) throw new InvalidArtifactNameError(String(name), 'it is empty');
  if (name.length > 200) throw new InvalidArtifactNameError(name, 'it is longer than 200 characters');
  if (/[/\\]/.test(name)) throw new InvalidArtifactNameError(name, 'it contains a slash');
  if (hasControlCharacter(name)) throw new InvalidArtifactNameError(name, 'it contains a control character');
  // encodeURIComponent throws a URIError on one, and a store refuses it (not valid Unicode).
  if (loneSurrogate.test(name)) throw new InvalidArtifactNameError(name, 'it contains a lone UTF-16 surrogate');
  if (name === '.' || name === '..') throw new InvalidArtifactNameError(name, 'it is a relative path');
  // The versions are kept as a JSON object's keys: one named `__proto__` is taken for its prototype, not a key.
  if (name === '__proto__') throw new InvalidArtifactNameError(name, 'it is reserved');
  if (encodeURIComponent(name).length > maxEncodedLength) {
    throw new InvalidArtifactNameError(name, `URI-encoded it is longer than ${maxEncodedLength} characters`);
  }
}

/**
 * Where version `version` of an artifact lives: `<conversation dir>/artifacts/<name, URI-encoded>/v<version>`,
 * beside the reference's files (which it ignores), on whichever store the conversation uses.
 */
export function artifactPath(directory: string, name: string, version: number): string {
  return `${directory}/artifacts/${encodeURIComponent(name)}/v${version}`;
}

/**
 * Writes `data` as the next version of `name` after `latest`, with `writeIfAbsent`: two writers racing for one
 * version both succeed, each with its own version number. Returns the version written.
 */
export async function writeArtifactVersion(
  store: FileStore,
  directory: string,
  name: string,
  data: Uint8Array | string,
  latest: number,
): Promise<number> {
  for (let version = latest + 1; ; version += 1) {
    if (await store.writeIfAbsent(artifactPath(directory, name, version), data)) return version;
  }
}

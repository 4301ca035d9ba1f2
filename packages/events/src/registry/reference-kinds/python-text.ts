/**
 * Python string behaviours the reference's renderings depend on, where JavaScript's differ.
 */

/** Python's `str.splitlines()` line boundaries besides `\r\n` (one boundary): LF, CR, VT, FF, FS, GS, RS, NEL, LS, PS. */
const lineBoundaries = new Set([0x0a, 0x0d, 0x0b, 0x0c, 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029]);

/** `len(text.splitlines())`: a trailing line break does not start another line; `""` has none. */
export function pythonLineCount(text: string): number {
  let lines = 0;
  let lineOpen = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!lineBoundaries.has(code)) {
      lineOpen = true;
      continue;
    }
    if (code === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
    lines++;
    lineOpen = false;
  }
  return lineOpen ? lines + 1 : lines;
}

/**
 * `str(PurePosixPath(directory) / name)`: repeated and trailing slashes and `.` segments collapse (`..` stays), a
 * leading `//` (exactly two) is kept, an empty directory means the current one.
 */
export function pythonPosixJoin(directory: string, name: string): string {
  const leading =
    directory.startsWith('//') && !directory.startsWith('///') ? '//' : directory.startsWith('/') ? '/' : '';
  const segments = directory.split('/').filter((segment) => segment !== '' && segment !== '.');
  return leading + [...segments, name].join('/');
}

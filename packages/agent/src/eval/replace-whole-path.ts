/** A character that continues a path's last component: `/tmp/ws` followed by one names another path (`/tmp/ws2`). */
const componentCharacter = /[\w-]/;

function continuesPath(text: string, at: number): boolean {
  const next = text[at];
  if (next === undefined) return false;
  if (componentCharacter.test(next)) return true;
  // `/tmp/ws.bak` is another path; the full stop ending a sentence (`... in /tmp/ws.`) is not.
  return next === '.' && /[\w.-]/.test(text[at + 1] ?? '');
}

/**
 * `text` with every occurrence of the directory `path` that is a whole path prefix replaced: followed by `/`, by a
 * character no path component holds, or by the end. `/tmp/ws` in `/tmp/ws2/a` is part of another name, and stays.
 */
export function replaceWholePath(text: string, path: string, replacement: string): string {
  if (path === '') return text;
  let result = '';
  let copiedTo = 0;
  let at = text.indexOf(path);
  while (at !== -1) {
    const end = at + path.length;
    if (continuesPath(text, end)) {
      at = text.indexOf(path, at + 1);
      continue;
    }
    result += text.slice(copiedTo, at) + replacement;
    copiedTo = end;
    at = text.indexOf(path, end);
  }
  return result + text.slice(copiedTo);
}

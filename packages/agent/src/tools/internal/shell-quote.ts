/** ASCII-only, as Python's `re.ASCII` pattern in `shlex.quote` (JS `\w` is ASCII-only too). */
const safeWord = /^[\w@%+=:,./-]+$/;

/** Python `shlex.quote`. */
export function shellQuote(word: string): string {
  if (word === '') return "''";
  if (safeWord.test(word)) return word;
  return `'${word.replaceAll("'", `'"'"'`)}'`;
}

/** Python `shlex.join`. */
export function shellJoin(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}

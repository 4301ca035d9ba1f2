/** Characters that make a matcher a regular expression rather than an exact tool name (as the reference). */
const REGEX_METACHARACTERS = /[|.*+?[\]()^$\\]/;

/** Python's global inline flags, allowed only at the start of a pattern, e.g. `(?i)terminal`. */
const LEADING_INLINE_FLAGS = /^\(\?([a-zA-Z]+)\)/;

/**
 * The JavaScript flag for each Python inline flag. `a` and `u` only change what `\w` and `\d` mean outside
 * ASCII, and `m` only what `^` and `$` mean around line breaks: neither occurs in a tool name. `L` (refused by
 * Python on text) and `x` (no JavaScript equivalent) are missing: the pattern does not compile.
 */
const INLINE_FLAGS: Readonly<Record<string, string>> = { i: 'i', s: 's', a: '', m: '', u: '' };

/**
 * Python's `re.fullmatch` as closely as JavaScript allows. No `u` flag: Python accepts escaped punctuation
 * such as `\-` or `\_`, which JavaScript refuses in unicode mode. `undefined` when the pattern does not compile.
 */
function fullMatch(pattern: string, value: string): boolean | undefined {
  let body = pattern;
  let flags = '';
  const inline = LEADING_INLINE_FLAGS.exec(pattern);
  if (inline !== null) {
    for (const flag of inline[1]!) {
      const mapped = INLINE_FLAGS[flag];
      if (mapped === undefined) return undefined;
      if (!flags.includes(mapped)) flags += mapped;
    }
    body = pattern.slice(inline[0].length);
  }
  try {
    return new RegExp(`^(?:${body})$`, flags).test(value);
  } catch {
    return undefined;
  }
}

/**
 * Whether a hook matcher applies to a tool (reference `HookMatcher.matches`): `*` or `''` match everything
 * (and events without a tool); `/pattern/` is a regular expression; a matcher containing regex
 * metacharacters is tried as one (falling back to an exact match when it does not compile); anything else
 * must equal the tool name. Regular expressions must match the whole name.
 */
export function hookMatcherMatches(matcher: string, toolName: string | undefined): boolean {
  if (matcher === '*' || matcher === '') return true;
  if (toolName === undefined) return false;
  if (matcher.length > 2 && matcher.startsWith('/') && matcher.endsWith('/')) {
    return fullMatch(matcher.slice(1, -1), toolName) ?? false;
  }
  if (REGEX_METACHARACTERS.test(matcher)) {
    const matched = fullMatch(matcher, toolName);
    if (matched !== undefined) return matched;
  }
  return matcher === toolName;
}

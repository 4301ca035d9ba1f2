/** A piece of request text that depends on the machine or the run, not on the agent: compared as `replacement`. */
export interface VolatilePattern {
  /** Must have the `g` flag: every occurrence is replaced. */
  readonly pattern: RegExp;
  readonly replacement: string;
}

/**
 * What strict replay blanks out by default, on both sides, before comparing. The terminal's observation text ends
 * with lines its PS1 prompt reports (reference `CmdOutputMetadata`): the working directory (kept: the agent's
 * `cd` shows there; give the workspace to `normalize`), the exit code (kept) and the Python interpreter found on
 * PATH, which belongs to the host (a pyenv shim here, /usr/bin/python there). pid, user and host name and
 * timestamps are in the event files but never in the request text, so they need no rule.
 */
export const DEFAULT_VOLATILE_PATTERNS: readonly VolatilePattern[] = Object.freeze([
  { pattern: /\[Python interpreter: [^\]\n]*\]/g, replacement: '[Python interpreter: <volatile>]' },
]);

export function blankVolatile(text: string, patterns: readonly VolatilePattern[]): string {
  let result = text;
  for (const { pattern, replacement } of patterns) result = result.replace(pattern, replacement);
  return result;
}

import { createContext, Script } from 'node:vm';

/** Why a regex search stopped early. */
export class RegexTimeoutError extends Error {}

/**
 * Runs one regular expression over texts with a time limit. A pattern given by the model may backtrack for ever
 * (`(a+)+$`) and would freeze the whole process; run inside a `vm` context with a `timeout`, V8 interrupts it.
 */
export interface RegexRunner {
  /** Whether the pattern occurs in `text`; throws `RegexTimeoutError` once the deadline has passed. */
  test(text: string): boolean;
}

export function createRegexRunner(regex: RegExp, deadline: () => number): RegexRunner {
  const context = createContext({ regex, text: '' });
  const script = new Script('regex.lastIndex = 0; regex.test(text)');
  return {
    test(text: string): boolean {
      const remaining = Math.floor(deadline());
      if (remaining <= 0) throw new RegexTimeoutError('the search ran out of time');
      context.text = text;
      try {
        return script.runInContext(context, { timeout: remaining }) === true;
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
          throw new RegexTimeoutError('the search ran out of time', { cause: error });
        } else {
          throw error;
        }
      } finally {
        context.text = '';
      }
    },
  };
}

/**
 * Reads a pattern written for the reference's Python `re` in JavaScript: named groups `(?P<name>…)` and
 * back-references `(?P=name)`, and a leading `(?i)` (the search is case-insensitive anyway). Throws `SyntaxError`
 * for what JavaScript cannot compile.
 */
export function compileSearchPattern(pattern: string): RegExp {
  const translated = pattern
    .replace(/^\(\?i\)/, '')
    .replace(/\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g, '(?<$1>')
    .replace(/\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/g, '\\k<$1>');
  return new RegExp(translated, 'im');
}

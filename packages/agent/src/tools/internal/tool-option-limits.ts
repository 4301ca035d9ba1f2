import { InvalidToolError } from '../invalid-tool-error.js';

/** What a numeric tool option must be: a count (a whole number of 1 or more) or a duration (above 0). */
export type OptionLimit = 'count' | 'duration';

/**
 * Checks a tool's numeric options when the tool is made, not when the model first calls it: a 0, negative, NaN or
 * infinite value (a typo, an unset environment variable read with `Number`) would otherwise show up later as a
 * command that returns at once (`setTimeout(NaN)` fires immediately), output cut to nothing or a walk that finds
 * nothing, with no error naming the option. An option left out (`undefined`) takes its default.
 */
export function checkToolOptionLimits(
  toolName: string,
  options: object,
  limits: Readonly<Record<string, OptionLimit>>,
): void {
  for (const [name, limit] of Object.entries(limits)) {
    const value: unknown = (options as Record<string, unknown>)[name];
    if (value === undefined) continue;
    const valid =
      typeof value === 'number' &&
      Number.isFinite(value) &&
      (limit === 'count' ? Number.isInteger(value) && value >= 1 : value > 0);
    if (!valid) {
      const wanted = limit === 'count' ? 'a whole number of 1 or more' : 'a finite number of seconds above 0';
      throw new InvalidToolError(toolName, `${toolName} tool option ${name} must be ${wanted}, got ${shown(value)}`);
    }
  }
}

function shown(value: unknown): string {
  return typeof value === 'number' ? String(value) : `${typeof value} ${JSON.stringify(value) ?? String(value)}`;
}

import type { HookResult } from './hook-result.js';

type OutputFields = Pick<HookResult, 'decision' | 'reason' | 'additional_context' | 'blocked'> & { error?: string };

/**
 * Python's falsiness, which the reference's `if not output["continue"]` applies: `0`, `""`, `null`, `[]` and `{}`
 * block as `false` does (a JavaScript `!` would let `[]` and `{}` through).
 */
function isPythonFalsy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length === 0;
  return !value;
}

/**
 * Reads a hook's answer (stdout JSON, or a function's return value) the way the reference does: `decision`
 * (`allow`/`deny`, any case), `reason`, `additionalContext`, and a false `continue` (blocks). A decision other
 * than allow or deny (`null` included, on which the reference's hook fails) is reported as an error instead of
 * being guessed at.
 */
export function readHookOutput(value: unknown): OutputFields {
  const fields: OutputFields = { blocked: false };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fields;
  const output = value as Record<string, unknown>;
  const problems: string[] = [];
  if (output.decision !== undefined) {
    const decision = typeof output.decision === 'string' ? output.decision.toLowerCase() : undefined;
    if (decision === 'allow') fields.decision = 'allow';
    else if (decision === 'deny') {
      fields.decision = 'deny';
      fields.blocked = true;
    } else problems.push(`'decision' must be "allow" or "deny", got ${JSON.stringify(output.decision)}`);
  }
  if (output.reason !== undefined && output.reason !== null) fields.reason = String(output.reason);
  if (output.additionalContext !== undefined && output.additionalContext !== null) {
    fields.additional_context = String(output.additionalContext);
  }
  if (output.continue !== undefined && isPythonFalsy(output.continue)) fields.blocked = true;
  if (problems.length > 0) fields.error = `Hook output is invalid: ${problems.join('; ')}`;
  return fields;
}

/**
 * Parses a command hook's stdout. Plain text is allowed (a hook may just log); text that looks like JSON
 * (starts with `{`) but does not parse is an error, so a broken hook is visible rather than silently allowed.
 */
export function parseHookStdout(stdout: string): OutputFields {
  const text = stdout.trim();
  if (text === '') return { blocked: false };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    if (!text.startsWith('{')) return { blocked: false };
    return {
      blocked: false,
      error: `Hook printed invalid JSON on stdout: ${(cause as Error).message}`,
    };
  }
  return readHookOutput(json);
}

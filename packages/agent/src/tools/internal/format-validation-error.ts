import type { z } from 'zod';

/**
 * Formats zod issues the way pydantic prints a ValidationError (the text the reference puts in
 * "Error validating tool ...": a count line, then each failing field and what was wrong with it).
 */
export function formatValidationError(error: z.ZodError, modelName: string): string {
  const entries: string[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) entries.push(`${[...issue.path, key].join('.')}\n  Extra inputs are not permitted`);
    } else {
      entries.push(`${issue.path.length === 0 ? '(root)' : issue.path.join('.')}\n  ${issue.message}`);
    }
  }
  const count = `${entries.length} validation error${entries.length === 1 ? '' : 's'} for ${modelName}`;
  return [count, ...entries].join('\n');
}

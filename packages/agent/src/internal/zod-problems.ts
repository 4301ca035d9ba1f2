import type { z } from 'zod';

/**
 * A zod error as one line a person reads: each issue as `path: message`, `;`-separated (`(root)` for the value
 * itself). `error.message` is the issues' JSON, which error messages must not carry.
 */
export function zodProblems(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length === 0 ? '(root)' : issue.path.map(String).join('.')}: ${issue.message}`)
    .join('; ');
}

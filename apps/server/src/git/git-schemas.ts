import { z } from 'zod';

/** How a file changed (the reference's GitChangeStatus; its diffs never report MOVED: a rename is DELETED + ADDED). */
export const gitChangeStatusSchema = z.enum(['MOVED', 'ADDED', 'DELETED', 'UPDATED']);
export type GitChangeStatus = z.infer<typeof gitChangeStatusSchema>;

export const gitChangeSchema = z
  .object({
    status: gitChangeStatusSchema,
    /** The file's path relative to the repository's top directory, with `/` separators. */
    path: z.string(),
  })
  .describe('GitChange');
export type GitChange = z.infer<typeof gitChangeSchema>;

export const gitDiffSchema = z
  .object({
    /** The file now (or at the commit); null when the path is in no repository. */
    modified: z.string().nullable(),
    /** The file at the base (or at the commit's first parent); null when the path is in no repository. */
    original: z.string().nullable(),
  })
  .describe('GitDiff');
export type GitDiff = z.infer<typeof gitDiffSchema>;

export const gitCommitSchema = z
  .object({
    sha: z.string(),
    short_sha: z.string(),
    subject: z.string(),
    author: z.string(),
    /** The author date, ISO 8601 with its UTC offset (git's `%aI`). */
    timestamp: z.string(),
  })
  .describe('GitCommit');
export type GitCommit = z.infer<typeof gitCommitSchema>;

export const gitCommitsPageSchema = z
  .object({ commits: z.array(gitCommitSchema), has_more: z.boolean() })
  .describe('GitCommitsPage');
export type GitCommitsPage = z.infer<typeof gitCommitsPageSchema>;

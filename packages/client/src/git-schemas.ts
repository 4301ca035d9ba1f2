import { z } from 'zod';

/** How a file changed (the reference's GitChangeStatus; a rename is reported as DELETED plus ADDED). */
export const gitChangeStatusSchema = z.enum(['MOVED', 'ADDED', 'DELETED', 'UPDATED']);
export type GitChangeStatus = z.infer<typeof gitChangeStatusSchema>;

/** One changed file (the reference's GitChange). */
export const gitChangeSchema = z.object({
  status: gitChangeStatusSchema,
  /** The file's path relative to the repository's top directory, with `/` separators. */
  path: z.string(),
});
export type GitChange = z.infer<typeof gitChangeSchema>;

/** One file's two sides (the reference's GitDiff). */
export const gitDiffSchema = z.object({
  /** The file now (or at the commit); null when the path is in no repository. */
  modified: z.string().nullable(),
  /** The file at the base (or at the commit's first parent); null when the path is in no repository. */
  original: z.string().nullable(),
});
export type GitDiff = z.infer<typeof gitDiffSchema>;

/** One commit of a page. */
export const gitCommitSchema = z.object({
  sha: z.string(),
  short_sha: z.string(),
  subject: z.string(),
  author: z.string(),
  /** The author date, ISO 8601 with its UTC offset. */
  timestamp: z.string(),
});
export type GitCommit = z.infer<typeof gitCommitSchema>;

/** The most recent commits, newest first, and whether there are older ones. */
export const gitCommitsPageSchema = z.object({ commits: z.array(gitCommitSchema), has_more: z.boolean() });
export type GitCommitsPage = z.infer<typeof gitCommitsPageSchema>;

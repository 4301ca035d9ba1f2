import {
  gitChangeSchema as clientGitChangeSchema,
  gitCommitSchema as clientGitCommitSchema,
  gitDiffSchema as clientGitDiffSchema,
} from '@x/client';
import { z } from 'zod';

// The wire shapes are @x/client's (what a client checks the answers against): the routes answer with those, named
// here for the OpenAPI document. A rename is reported as DELETED plus ADDED, as the reference's diffs do (no MOVED).
export {
  type GitChange,
  type GitChangeStatus,
  type GitCommit,
  type GitCommitsPage,
  type GitDiff,
  gitChangeStatusSchema,
} from '@x/client';

export const gitChangeSchema = clientGitChangeSchema.describe('GitChange');
export const gitDiffSchema = clientGitDiffSchema.describe('GitDiff');
export const gitCommitSchema = clientGitCommitSchema.describe('GitCommit');
export const gitCommitsPageSchema = z
  .object({ commits: z.array(gitCommitSchema), has_more: z.boolean() })
  .describe('GitCommitsPage');

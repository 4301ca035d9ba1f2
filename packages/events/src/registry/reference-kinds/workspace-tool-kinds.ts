import { z } from 'zod';

/**
 * The actions and observations of the reference's `apply_patch`, `glob`, `grep` and `invoke_skill` tools, as the
 * reader accepts them: the reference's fields with their types, other fields kept (loose, so a conversation written
 * by a newer reference still loads). They render to the LLM as every observation does (the error header, then
 * `content`), which is the reference's `Observation.to_llm_content` for all four.
 */

export const applyPatchActionSchema = z.looseObject({ patch: z.string() });

/** One file of an apply_patch commit (the reference's `FileChange`). */
export const fileChangeReadSchema = z.looseObject({
  type: z.enum(['add', 'delete', 'update']),
  old_content: z.string().nullish(),
  new_content: z.string().nullish(),
  move_path: z.string().nullish(),
});

export const applyPatchObservationSchema = z.looseObject({
  message: z.string().optional(),
  fuzz: z.number().int().optional(),
  commit: z.looseObject({ changes: z.record(z.string(), fileChangeReadSchema) }).nullish(),
});

export const globActionSchema = z.looseObject({ pattern: z.string(), path: z.string().nullish() });

export const globObservationSchema = z.looseObject({
  files: z.array(z.string()),
  pattern: z.string(),
  search_path: z.string(),
  truncated: z.boolean().optional(),
});

export const grepActionSchema = z.looseObject({
  pattern: z.string(),
  path: z.string().nullish(),
  include: z.string().nullish(),
});

export const grepObservationSchema = z.looseObject({
  matches: z.array(z.string()),
  pattern: z.string(),
  search_path: z.string(),
  include_pattern: z.string().nullish(),
  truncated: z.boolean().optional(),
});

export const invokeSkillActionSchema = z.looseObject({ name: z.string() });

export const invokeSkillObservationSchema = z.looseObject({ skill_name: z.string() });

/** Kind → schema, registered in every event registry. */
export const workspaceToolActionKinds: Readonly<Record<string, z.ZodObject>> = Object.freeze({
  ApplyPatchAction: applyPatchActionSchema,
  GlobAction: globActionSchema,
  GrepAction: grepActionSchema,
  InvokeSkillAction: invokeSkillActionSchema,
});

export const workspaceToolObservationKinds: Readonly<Record<string, z.ZodObject>> = Object.freeze({
  ApplyPatchObservation: applyPatchObservationSchema,
  GlobObservation: globObservationSchema,
  GrepObservation: grepObservationSchema,
  InvokeSkillObservation: invokeSkillObservationSchema,
});

import { z } from 'zod';
import { contentPartSchema } from './content.js';

/** Who produced an event. */
export const sourceTypeSchema = z.enum(['agent', 'user', 'environment', 'hook']);
export type SourceType = z.infer<typeof sourceTypeSchema>;

/** Ordered LOW < MEDIUM < HIGH; UNKNOWN is not comparable. */
export const securityRiskSchema = z.enum(['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH']);
export type SecurityRisk = z.infer<typeof securityRiskSchema>;

export const failureKindSchema = z.enum([
  'auth',
  'quota',
  'rate_limit',
  'config',
  'transient',
  'agent_action',
  'internal',
  'unknown',
]);
export type FailureKind = z.infer<typeof failureKindSchema>;

export const errorClassificationSchema = z.object({
  kind: failureKindSchema,
  retryable: z.boolean(),
  user_action: z.enum(['none', 'retry', 'settings']).default('none'),
  error_id: z.string().optional(),
});
export type ErrorClassification = z.infer<typeof errorClassificationSchema>;

/** Classification used when none is given (reference default). */
export const UNKNOWN_CLASSIFICATION: ErrorClassification = Object.freeze({
  kind: 'unknown',
  retryable: false,
  user_action: 'none',
});

/** Classification of agent-correctable errors ("AGENT_OUTCOME" in the reference). */
export const AGENT_ACTION_CLASSIFICATION: ErrorClassification = Object.freeze({
  kind: 'agent_action',
  retryable: true,
  user_action: 'retry',
});

export const criticResultSchema = z.object({
  score: z.number(),
  message: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type CriticResult = z.infer<typeof criticResultSchema>;

/** MCP-style tool annotations (camelCase keys, as the reference writes them). */
export const toolAnnotationsSchema = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().default(false),
  destructiveHint: z.boolean().default(true),
  idempotentHint: z.boolean().default(false),
  openWorldHint: z.boolean().default(true),
});
export type ToolAnnotations = z.infer<typeof toolAnnotationsSchema>;

/**
 * A tool as embedded in a SystemPromptEvent (reference §4.3). The tool's name is not serialized
 * by the reference (it is derived from `kind`, or `mcp_tool.name`); unknown keys are kept.
 */
export const toolDefinitionSchema = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.string().optional(),
  annotations: toolAnnotationsSchema.optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
  kind: z.string(),
  /** Computed by the reference (`annotations.title` or the tool name) and written after `kind`. */
  title: z.string(),
});
export type ToolDefinition = z.infer<typeof toolDefinitionSchema>;

/**
 * An action: the validated arguments of a tool call plus the action class name as `kind`.
 * Registered action kinds are validated against their own schema when events are parsed.
 */
export const actionSchema = z.looseObject({ kind: z.string() });
export type Action = z.infer<typeof actionSchema>;

/** An observation: a tool's result. Registered kinds add their own fields. */
export const observationSchema = z.looseObject({
  content: z.array(contentPartSchema).default([]),
  is_error: z.boolean().default(false),
  kind: z.string(),
});
export type Observation = z.infer<typeof observationSchema>;

import { z } from 'zod';

/**
 * The schemas of the request parameters both faces read (OpenAI's types and bounds): declared in the request schemas,
 * a value of the wrong type is a 400 naming the field and the type expected before any code reads it, instead of a
 * value that passes or fails a refusal's check by accident (`n: "2"`, `tool_choice: 7`).
 */

/** A whole number from `min` to `max`, as OpenAI's integer parameters (`n`, `top_logprobs`, the token limits). */
export const integerSchema = (min: number, max: number) => z.number().int().min(min).max(max);

/** `tool_choice`: a mode, or an object naming a tool (`{type: 'function', ...}`, a hosted tool, `allowed_tools`). */
export const toolChoiceSchema = z.union(
  [z.enum(['none', 'auto', 'required']), z.looseObject({ type: z.string().min(1) })],
  { error: "expected 'none', 'auto', 'required' or an object naming a tool (with a string type)" },
);

/** `tools`: a list of tool definitions, each with its `type` (`function`, or a hosted tool's). */
export const toolsSchema = z.array(z.looseObject({ type: z.string().min(1) }));

/** An object with a string `type`: Chat's `response_format` and the `format` of Responses' `text`. */
export const typedFormatSchema = z.looseObject({ type: z.string().min(1) });

/** OpenAI's `metadata`: at most 16 pairs, keys up to 64 characters, values up to 512. */
export const metadataSchema = z
  .record(z.string().max(64), z.string().max(512))
  .refine((metadata) => Object.keys(metadata).length <= 16, 'metadata holds at most 16 pairs');

import { z } from 'zod';
import type { LLM } from '../llm/llm.js';
import type { Condenser } from './condenser.js';
import { InvalidCondenserConfigError } from './invalid-condenser-config-error.js';
import { LLMSummarizingCondenser } from './llm-summarizing-condenser.js';
import { NoOpCondenser } from './no-op-condenser.js';
import { PipelineCondenser } from './pipeline-condenser.js';
import type { TokenCounter } from './token-counter.js';

const nullableNumber = z.number().nullish();

/** The reference JSON of an LLMSummarizingCondenser; the `llm` config is not restored from JSON. */
const summarizingJsonSchema = z.looseObject({
  kind: z.literal('LLMSummarizingCondenser'),
  max_size: nullableNumber,
  max_tokens: nullableNumber,
  keep_first: nullableNumber,
  minimum_progress: nullableNumber,
  hard_context_reset_max_retries: nullableNumber,
  hard_context_reset_context_scaling: nullableNumber,
  max_event_str_length: nullableNumber,
});

export interface CondenserFromJSONOptions {
  /** The summarizing LLM for LLMSummarizingCondenser configs (persisted configs hold no credentials). */
  llm?: LLM;
  tokenCounter?: TokenCounter;
}

/**
 * Rebuilds a condenser from its reference JSON (`toJSON()` output or a persisted agent config):
 * NoOpCondenser, PipelineCondenser, LLMSummarizingCondenser. Throws `InvalidCondenserConfigError`
 * naming the JSON path of whatever is wrong, including an unknown `kind`.
 */
export function condenserFromJSON(json: unknown, options: CondenserFromJSONOptions = {}): Condenser {
  return fromJSONAt(json, '$', options);
}

function fromJSONAt(json: unknown, path: string, options: CondenserFromJSONOptions): Condenser {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new InvalidCondenserConfigError([`${path}: expected a condenser object, got ${JSON.stringify(json)}`]);
  }
  const kind = (json as { kind?: unknown }).kind;
  switch (kind) {
    case 'NoOpCondenser':
      return new NoOpCondenser();
    case 'PipelineCondenser': {
      const condensers = (json as { condensers?: unknown }).condensers;
      if (!Array.isArray(condensers)) {
        throw new InvalidCondenserConfigError([`${path}.condensers: expected an array`]);
      }
      return new PipelineCondenser(
        condensers.map((child, index) => fromJSONAt(child, `${path}.condensers[${index}]`, options)),
      );
    }
    case 'LLMSummarizingCondenser':
      return summarizingFromJSON(json, path, options);
    default:
      throw new InvalidCondenserConfigError([`${path}.kind: unknown condenser kind ${JSON.stringify(kind)}`]);
  }
}

function summarizingFromJSON(json: object, path: string, options: CondenserFromJSONOptions): Condenser {
  const parsed = summarizingJsonSchema.safeParse(json);
  if (!parsed.success) {
    throw new InvalidCondenserConfigError(
      parsed.error.issues.map((issue) => `${path}.${issue.path.join('.')}: ${issue.message}`),
    );
  }
  if (options.llm === undefined) {
    throw new InvalidCondenserConfigError([`${path}.llm: an LLM must be passed to restore an LLMSummarizingCondenser`]);
  }
  const value = parsed.data;
  try {
    return new LLMSummarizingCondenser({
      llm: options.llm,
      ...(options.tokenCounter !== undefined && { tokenCounter: options.tokenCounter }),
      maxSize: value.max_size ?? undefined,
      maxTokens: value.max_tokens ?? undefined,
      keepFirst: value.keep_first ?? undefined,
      minimumProgress: value.minimum_progress ?? undefined,
      hardContextResetMaxRetries: value.hard_context_reset_max_retries ?? undefined,
      hardContextResetContextScaling: value.hard_context_reset_context_scaling ?? undefined,
      maxEventStrLength: value.max_event_str_length ?? undefined,
    });
  } catch (error) {
    if (!(error instanceof InvalidCondenserConfigError)) throw error;
    // Settings are validated under their option names; report them under the JSON keys the user wrote.
    throw new InvalidCondenserConfigError(
      error.problems.map((problem) => `${path}: ${problem.replace(/[a-z][A-Za-z]*/g, toSnakeCase)}`),
    );
  }
}

function toSnakeCase(word: string): string {
  return word.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

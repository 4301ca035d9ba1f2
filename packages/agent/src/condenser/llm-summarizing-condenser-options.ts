import { z } from 'zod';
import type { LLM } from '../llm/llm.js';
import { InvalidCondenserConfigError } from './invalid-condenser-config-error.js';
import type { TokenCounter } from './token-counter.js';

/** The numeric settings of `LLMSummarizingCondenser`, with the reference defaults (§6.5). */
export const llmSummarizingCondenserSettingsSchema = z.object({
  /** Condense (SOFT) when the view holds more events than this. */
  maxSize: z.number().int().positive().default(240),
  /** Condense (HARD) when the view's tokens exceed this (or the agent LLM's `maxInputTokens`, if smaller). */
  maxTokens: z.number().int().positive().optional(),
  /** Events at the start of the view that are never forgotten (system prompt, first user message). */
  keepFirst: z.number().int().nonnegative().default(2),
  /** A condensation must forget at least this fraction of the view, else none is made. */
  minimumProgress: z.number().gt(0).lt(1).default(0.1),
  /** Attempts of the hard context reset before giving up. */
  hardContextResetMaxRetries: z.number().int().positive().default(5),
  /** Each failed hard-reset attempt shrinks the per-event text limit by this factor. */
  hardContextResetContextScaling: z.number().gt(0).lt(1).default(0.8),
  /** Middle-truncate each event's text to this many characters in the summarizing prompt. */
  maxEventStrLength: z.number().int().positive().optional(),
});
export type LLMSummarizingCondenserSettings = z.infer<typeof llmSummarizingCondenserSettingsSchema>;

export interface LLMSummarizingCondenserOptions extends z.input<typeof llmSummarizingCondenserSettingsSchema> {
  /** The LLM that writes summaries (it may be the agent's own). */
  llm: LLM;
  /** Token counting for the TOKENS reason; defaults to `approximateTokenCounter` (characters / 4). */
  tokenCounter?: TokenCounter;
}

/**
 * Fills defaults and validates, throwing `InvalidCondenserConfigError` that names every bad setting and
 * its value, including the reference's rule `maxSize // 2 - keepFirst - 1 > 0` (there must be room for
 * a tail to keep after the head).
 */
export function resolveLLMSummarizingCondenserSettings(
  options: Omit<LLMSummarizingCondenserOptions, 'llm' | 'tokenCounter'>,
): LLMSummarizingCondenserSettings {
  const input = options as Record<string, unknown>;
  const parsed = llmSummarizingCondenserSettingsSchema.safeParse(options);
  if (!parsed.success) {
    throw new InvalidCondenserConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.');
        return `${name}: ${issue.message} (got ${JSON.stringify(input[name])})`;
      }),
    );
  }
  const settings = parsed.data;
  const tail = Math.floor(settings.maxSize / 2) - settings.keepFirst - 1;
  if (tail <= 0) {
    throw new InvalidCondenserConfigError([
      `maxSize // 2 - keepFirst - 1 must be > 0, but maxSize ${settings.maxSize} and keepFirst ${settings.keepFirst} give ${tail}`,
    ]);
  }
  return settings;
}

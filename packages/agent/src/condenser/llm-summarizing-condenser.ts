import { type Condensation, createEvent, type LLMConvertibleEvent, type View } from '@x/events';
import type { LLM } from '../llm/llm.js';
import { withUsageId } from '../llm/with-usage-id.js';
import { traceChat } from '../telemetry/index.js';
import type { CondenserContext } from './condenser.js';
import { eventSummaryText, truncateMiddle } from './internal/event-summary-text.js';
import {
  type LLMSummarizingCondenserOptions,
  type LLMSummarizingCondenserSettings,
  resolveLLMSummarizingCondenserSettings,
} from './llm-summarizing-condenser-options.js';
import { NoCondensationAvailableError } from './no-condensation-available-error.js';
import { type CondensationRequirement, RollingCondenser } from './rolling-condenser.js';
import { renderSummarizingPrompt } from './summarizing-prompt.js';
import {
  approximateTokenCounter,
  countEventTokens,
  suffixLengthForTokenReduction,
  type TokenCounter,
} from './token-counter.js';

/** Why a view needs condensing: an explicit request, too many tokens, too many events. */
export type CondensationReason = 'request' | 'tokens' | 'events';

/**
 * Replaces the middle of a long view with an LLM-written summary (reference §6.5): the first `keepFirst`
 * events and a recent tail stay, everything between is forgotten and summarized at the cut.
 */
export class LLMSummarizingCondenser extends RollingCondenser {
  readonly llm: LLM;
  readonly settings: LLMSummarizingCondenserSettings;
  readonly #tokenCounter: TokenCounter;

  /** Throws `InvalidCondenserConfigError` naming each invalid setting. */
  constructor(options: LLMSummarizingCondenserOptions) {
    super();
    const { llm, tokenCounter, ...settings } = options;
    this.settings = Object.freeze(resolveLLMSummarizingCondenserSettings(settings));
    this.llm = llm;
    this.#tokenCounter = tokenCounter ?? approximateTokenCounter;
  }

  override handlesCondensationRequests(): boolean {
    return true;
  }

  /** The token limit in force: the smaller of `maxTokens` and the agent LLM's `maxInputTokens`, if any. */
  effectiveMaxTokens(context: CondenserContext = {}): number | undefined {
    const limits = [this.settings.maxTokens, maxInputTokensOf(context.llm)].filter(
      (limit): limit is number => limit !== undefined,
    );
    return limits.length === 0 ? undefined : Math.min(...limits);
  }

  condensationReasons(view: View, context: CondenserContext = {}): Set<CondensationReason> {
    const reasons = new Set<CondensationReason>();
    if (view.unhandledCondensationRequest) reasons.add('request');
    const maxTokens = this.effectiveMaxTokens(context);
    if (
      maxTokens !== undefined &&
      context.llm !== undefined &&
      countEventTokens(view.events, this.#tokenCounter) > maxTokens
    ) {
      reasons.add('tokens');
    }
    if (view.events.length > this.settings.maxSize) reasons.add('events');
    return reasons;
  }

  /** HARD for a request or too many tokens (the view cannot be sent), SOFT for too many events. */
  condensationRequirement(view: View, context: CondenserContext = {}): CondensationRequirement | null {
    const reasons = this.condensationReasons(view, context);
    if (reasons.size === 0) return null;
    return reasons.has('tokens') || reasons.has('request') ? 'hard' : 'soft';
  }

  async getCondensation(view: View, context: CondenserContext = {}): Promise<Condensation> {
    const { forgotten, summaryOffset } = this.forgottenRange(view, context);
    return this.summarize(forgotten, { summaryOffset, maxEventStrLength: this.settings.maxEventStrLength, context });
  }

  /**
   * The slice of the view to forget: from the first manipulation index at or after `keepFirst` to the
   * first one at or after the start of the tail that every reason allows to keep.
   */
  forgottenRange(
    view: View,
    context: CondenserContext = {},
  ): { forgotten: readonly LLMConvertibleEvent[]; summaryOffset: number } {
    const { keepFirst, maxSize, minimumProgress } = this.settings;
    const events = view.events;
    const tails: number[] = [];
    for (const reason of this.condensationReasons(view, context)) {
      if (reason === 'request') tails.push(Math.floor(events.length / 2) - keepFirst - 1);
      else if (reason === 'events') tails.push(Math.floor(maxSize / 2) - keepFirst - 1);
      else tails.push(this.#tokenTail(events, context));
    }
    if (tails.length === 0) throw new NoCondensationAvailableError('The view does not need condensing');
    const naiveEnd = events.length - Math.min(...tails);
    const indices = view.manipulationIndices();
    const start = nextIndex(indices, keepFirst);
    const end = nextIndex(indices, naiveEnd);
    if (start === undefined || end === undefined) {
      throw new NoCondensationAvailableError(
        `Unable to compute forgotten events: no manipulation index at or after ${start === undefined ? keepFirst : naiveEnd} in a view of ${events.length} events`,
      );
    }
    const forgotten = events.slice(start, end);
    if (forgotten.length === 0) {
      throw new NoCondensationAvailableError(`No events to forget between indices ${start} and ${end}`);
    }
    if (forgotten.length < events.length * minimumProgress) {
      throw new NoCondensationAvailableError(
        `Forgetting ${forgotten.length} of ${events.length} events does not reach the minimum progress of ${minimumProgress}`,
      );
    }
    return { forgotten, summaryOffset: start };
  }

  /** Events at the tail that may stay when the view must lose `total - max // 2` tokens. */
  #tokenTail(events: readonly LLMConvertibleEvent[], context: CondenserContext): number {
    const maxTokens = this.effectiveMaxTokens(context) ?? Number.POSITIVE_INFINITY;
    const reduction = countEventTokens(events, this.#tokenCounter) - Math.floor(maxTokens / 2);
    return suffixLengthForTokenReduction(events.slice(this.settings.keepFirst), reduction, {
      counter: this.#tokenCounter,
      base: events.slice(0, this.settings.keepFirst),
    });
  }

  /**
   * Asks the LLM to summarize `forgotten` and returns the Condensation. Any LLM failure (other than an
   * abort of `context.signal`) becomes `NoCondensationAvailableError`, so a HARD requirement falls
   * through to the hard context reset.
   */
  async summarize(
    forgotten: readonly LLMConvertibleEvent[],
    options: { summaryOffset: number; maxEventStrLength: number | undefined; context: CondenserContext },
  ): Promise<Condensation> {
    const eventStrings = forgotten.map((event) => truncateMiddle(eventSummaryText(event), options.maxEventStrLength));
    let response: Awaited<ReturnType<LLM['complete']>>;
    try {
      const request = {
        messages: [{ role: 'user' as const, content: renderSummarizingPrompt(eventStrings), thinking_blocks: [] }],
        ...(options.context.signal !== undefined && { signal: options.context.signal }),
      };
      response = await traceChat(this.llm, request, (request) => this.llm.complete(request));
    } catch (error) {
      if (options.context.signal?.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new NoCondensationAvailableError(`Summarizing ${forgotten.length} events failed: ${reason}`, {
        cause: error,
      });
    }
    // The summary's tokens and cost count under the condenser's usage id, like the agent's calls.
    await options.context.recordResponse?.(this.llm, response);
    const summary = response.message.content.find((part) => part.type === 'text')?.text;
    return createEvent('Condensation', {
      forgotten_event_ids: forgotten.map((event) => event.id),
      ...(summary !== undefined && { summary }),
      summary_offset: options.summaryOffset,
      llm_response_id: response.id,
    });
  }

  /**
   * Last resort for a HARD requirement: summarize the whole view (summary at offset 0). Each failed
   * attempt cuts every event's text to `hardContextResetContextScaling` of the previous limit (starting
   * from the longest event) so the summarizing request itself fits; null after the last attempt.
   */
  override async hardContextReset(view: View, context: CondenserContext = {}): Promise<Condensation | null> {
    const forgotten = [...view.events];
    if (forgotten.length === 0) return null;
    let limit = this.settings.maxEventStrLength;
    for (let attempt = 0; attempt < this.settings.hardContextResetMaxRetries; attempt++) {
      try {
        return await this.summarize(forgotten, { summaryOffset: 0, maxEventStrLength: limit, context });
      } catch (error) {
        if (!NoCondensationAvailableError.isInstance(error)) throw error;
        const current =
          limit ?? forgotten.reduce((longest, event) => Math.max(longest, eventSummaryText(event).length), 0);
        limit = Math.floor(current * this.settings.hardContextResetContextScaling);
      }
    }
    return null;
  }

  usageIds(): readonly string[] {
    return [this.llm.usageId];
  }

  toJSON(): Record<string, unknown> {
    const settings = this.settings;
    return {
      llm: { model: this.llm.model, usage_id: this.llm.usageId },
      max_size: settings.maxSize,
      ...(settings.maxTokens !== undefined && { max_tokens: settings.maxTokens }),
      keep_first: settings.keepFirst,
      minimum_progress: settings.minimumProgress,
      hard_context_reset_max_retries: settings.hardContextResetMaxRetries,
      hard_context_reset_context_scaling: settings.hardContextResetContextScaling,
      ...(settings.maxEventStrLength !== undefined && { max_event_str_length: settings.maxEventStrLength }),
      kind: 'LLMSummarizingCondenser',
    };
  }
}

/**
 * The condenser the default agent uses (reference `default_condenser`): max 80 events, keep the first 4,
 * summarizing with the agent's model under the usage id "condenser" so its calls are counted apart.
 */
export function defaultCondenser(llm: LLM): LLMSummarizingCondenser {
  return new LLMSummarizingCondenser({ llm: withUsageId(llm, 'condenser'), maxSize: 80, keepFirst: 4 });
}

function nextIndex(indices: Iterable<number>, threshold: number): number | undefined {
  let best: number | undefined;
  for (const index of indices) if (index >= threshold && (best === undefined || index < best)) best = index;
  return best;
}

/** The LLM interface has no context size; an LLM object that carries a positive `maxInputTokens` gives one. */
function maxInputTokensOf(llm: LLM | undefined): number | undefined {
  const value = (llm as { maxInputTokens?: unknown } | undefined)?.maxInputTokens;
  return typeof value === 'number' && value > 0 ? value : undefined;
}

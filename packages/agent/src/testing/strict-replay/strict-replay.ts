import { type LLM, type LLMRequest, normalizeMessages } from '../../llm/llm.js';
import { createOfflineLLM } from '../../llm/offline-llm.js';
import { recordingFromEvents } from '../../llm/recording.js';
import { firstDifference } from './first-difference.js';
import { formatDiff } from './format-diff.js';
import { type RecordedRequest, recordedRequests } from './recorded-requests.js';
import { type ReplayDivergence, ReplayDivergenceError } from './replay-divergence-error.js';
import { blankVolatile, DEFAULT_VOLATILE_PATTERNS, type VolatilePattern } from './volatile-text.js';

/** Options for `createStrictReplay`. */
export interface StrictReplayOptions {
  /**
   * Message fields that may differ between runs and are not compared. Default: `cache_prompt`
   * (a provider hint, not content). Tool call ids need no exemption: the replay answers with the
   * recorded ones.
   */
  ignoreFields?: readonly string[];
  /** Applied to every string on both sides before comparing, e.g. to blank out a temp workspace path. */
  normalize?: (text: string) => string;
  /**
   * Text that depends on the machine rather than the agent, replaced on both sides after `normalize`. Default
   * `DEFAULT_VOLATILE_PATTERNS` (the terminal's Python interpreter line); `[]` compares everything.
   */
  volatilePatterns?: readonly VolatilePattern[];
  usageId?: string;
}

/** A strict replay: an offline model that answers with the recorded responses, checking every request first. */
export interface StrictReplay {
  /** Give this to the agent in place of its model. */
  readonly llm: LLM;
  /** The first divergence, once one happened (the request that diverged was answered with an error). */
  readonly divergence: ReplayDivergence | undefined;
  /** How many requests matched the recording so far. */
  readonly matched: number;
  /** How many requests the recording holds. */
  readonly recorded: number;
  /**
   * Throws the `ReplayDivergenceError` (with its readable diff) if a request diverged, or if fewer
   * requests were made than were recorded; does nothing when the replay followed the recording.
   */
  assertMatched(): void;
}

/**
 * Replays a recorded conversation (its events, as stored or parsed) against the offline model, and
 * compares each request the agent makes with the recorded one: the messages of the view (the system
 * prompt included) and the tools (name and description). At the first divergence the model raises
 * `ReplayDivergenceError` with a readable diff, so recorded conversations become regression tests.
 */
export function createStrictReplay(events: readonly unknown[], options: StrictReplayOptions = {}): StrictReplay {
  // Rendered on first use, not now: the agent's tools register how their observations read to the model (the
  // terminal's metadata lines) when they are created, which is usually after this call.
  let rendered: RecordedRequest[] | undefined;
  const recorded = (): RecordedRequest[] => {
    rendered ??= recordedRequests(events);
    return rendered;
  };
  const offline = createOfflineLLM({ recording: recordingFromEvents(events), usageId: options.usageId });
  const ignore = new Set(options.ignoreFields ?? ['cache_prompt']);
  const own = options.normalize ?? ((text: string) => text);
  const volatile = options.volatilePatterns ?? DEFAULT_VOLATILE_PATTERNS;
  const normalize = (text: string): string => blankVolatile(own(text), volatile);
  let divergence: ReplayDivergence | undefined;
  let matched = 0;

  const check = (request: LLMRequest): void => {
    const requests = recorded();
    const index = matched;
    const expected: RecordedRequest | undefined = requests[index];
    const replayed = {
      messages: normalizeMessages(request.messages),
      tools: (request.tools ?? []).map((tool) => ({
        name: tool.function.name,
        description: tool.function.description,
      })),
    };
    const difference = expected
      ? firstDifference({ messages: expected.messages, tools: expected.tools }, replayed, { ignore, normalize })
      : { path: '(the request)', recorded: undefined, replayed: `request ${index + 1} of ${requests.length} recorded` };
    if (difference === undefined) {
      matched += 1;
      return;
    }
    const header = `request ${index}${expected ? ` (recorded response ${expected.responseId})` : ''} differs from the recording`;
    divergence = {
      requestIndex: index,
      responseId: expected?.responseId,
      ...difference,
      diff: formatDiff(header, difference, normalize),
    };
    throw new ReplayDivergenceError(divergence);
  };

  const llm: LLM = {
    model: offline.model,
    usageId: offline.usageId,
    offline: true,
    provider: 'offline',
    async complete(request) {
      if (divergence) throw new ReplayDivergenceError(divergence);
      check(request);
      return offline.complete(request);
    },
  };

  return {
    llm,
    get divergence() {
      return divergence;
    },
    get matched() {
      return matched;
    },
    get recorded() {
      return recorded().length;
    },
    assertMatched() {
      const requests = recorded();
      if (divergence) throw new ReplayDivergenceError(divergence);
      if (matched < requests.length) {
        const missing = requests[matched]!;
        const difference = { path: '(the request)', recorded: `request ${matched}`, replayed: undefined };
        throw new ReplayDivergenceError({
          requestIndex: matched,
          responseId: missing.responseId,
          ...difference,
          diff: formatDiff(
            `the replay stopped after ${matched} of ${requests.length} recorded requests (next: response ${missing.responseId})`,
            difference,
          ),
        });
      }
    },
  };
}

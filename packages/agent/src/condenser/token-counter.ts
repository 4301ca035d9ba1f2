import {
  type ChatCompletionsMessage,
  eventsToMessages,
  type LLMConvertibleEvent,
  type ToolDefinition,
  toChatCompletionsMessages,
} from '@x/events';

/**
 * Counts the tokens of a request: the Chat Completions messages and the tool definitions offered with
 * them. Plug in a real tokenizer here; the default is `approximateTokenCounter`.
 */
export type TokenCounter = (request: {
  messages: readonly ChatCompletionsMessage[];
  tools: readonly ToolDefinition[];
}) => number;

/**
 * Characters / 4, rounded up, over the JSON of each rendered message and of the tool list. The reference
 * counts with the model's tokenizer (LiteLLM); we ship no tokenizer, and a quarter of the characters is a
 * deliberately rough, dependency-free estimate of English text and code. Counting per message keeps the
 * count additive, so prefix searches behave, and an empty request counts 0.
 */
export const approximateTokenCounter: TokenCounter = ({ messages, tools }) => {
  let total = 0;
  for (const message of messages) total += Math.ceil(JSON.stringify(message).length / 4);
  if (tools.length > 0) total += Math.ceil(JSON.stringify(tools).length / 4);
  return total;
};

/** Tokens of `events` as the LLM would receive them, with the tools of the first SystemPromptEvent. */
export function countEventTokens(events: readonly LLMConvertibleEvent[], counter: TokenCounter): number {
  if (events.length === 0) return 0;
  const systemPrompt = events.find((event) => event.kind === 'SystemPromptEvent');
  return counter({
    messages: toChatCompletionsMessages(eventsToMessages(events)),
    tools: systemPrompt?.tools ?? [],
  });
}

export interface PrefixSearchOptions {
  counter: TokenCounter;
  /** Events counted before `events` (the kept head of the view); only the increment over them counts. */
  base?: readonly LLMConvertibleEvent[];
}

/**
 * Length of the shortest prefix of `events` whose tokens (over `base`) are strictly more than `threshold`,
 * by binary search; `events.length` when the whole list is not above it, 0 for an empty list.
 */
export function shortestPrefixAboveTokenCount(
  events: readonly LLMConvertibleEvent[],
  threshold: number,
  options: PrefixSearchOptions,
): number {
  if (events.length === 0) return 0;
  const base = options.base ?? [];
  const baseTokens = countEventTokens(base, options.counter);
  const increment = (length: number) =>
    countEventTokens([...base, ...events.slice(0, length)], options.counter) - baseTokens;
  if (increment(events.length) <= threshold) return events.length;
  let low = 1;
  let high = events.length;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (increment(middle) > threshold) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * How many events at the end of `events` can stay when `reduction` tokens must go: 0 for an empty
 * list, all of them when there is nothing to reduce, else what follows the shortest prefix above it.
 */
export function suffixLengthForTokenReduction(
  events: readonly LLMConvertibleEvent[],
  reduction: number,
  options: PrefixSearchOptions,
): number {
  if (events.length === 0) return 0;
  if (reduction <= 0) return events.length;
  return events.length - shortestPrefixAboveTokenCount(events, reduction, options);
}

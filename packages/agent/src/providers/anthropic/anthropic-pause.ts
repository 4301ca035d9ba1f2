import { LLMIncompleteResponseError } from '../../llm/errors/llm-incomplete-response-error.js';
import type { AnthropicReply } from './anthropic-response.js';

/**
 * How many times one answer is continued after a `pause_turn`. Anthropic pauses a long server-side turn
 * (server tools such as web search) and expects the client to send it back; a model that pauses without
 * end would otherwise keep the step waiting and paying forever.
 */
export const maxPauseContinuations = 8;

/** The request body fields a continuation changes. */
interface MessagesBody {
  messages: readonly unknown[];
  container?: unknown;
}

/**
 * One answer through its pauses: while the reply stops with `pause_turn`, asks again with the request's
 * messages followed by an assistant turn holding everything answered so far (block for block, as Anthropic
 * returned it, so the model continues where it paused), in the container the paused part ran in (code execution
 * goes on where it stopped, its files there), then merges the replies into one.
 */
export async function completeThroughPauses<Body extends MessagesBody>(
  body: Body,
  ask: (body: Body) => Promise<AnthropicReply>,
  context: { model: string },
): Promise<AnthropicReply> {
  const replies: AnthropicReply[] = [await ask(body)];
  while (replies[replies.length - 1]?.stop_reason === 'pause_turn') {
    if (replies.length > maxPauseContinuations) {
      throw new LLMIncompleteResponseError(
        `Model '${context.model}' paused its answer (stop_reason pause_turn) ${replies.length} times; an answer is continued at most ${maxPauseContinuations} times`,
        { providerCode: 'pause_turn' },
      );
    }
    const answered = replies.flatMap((reply) => reply.content);
    const container = latestContainer(replies);
    replies.push(
      await ask({
        ...body,
        messages: [...body.messages, { role: 'assistant', content: answered }],
        ...(container && { container: container.id }),
      }),
    );
  }
  return mergeReplies(replies);
}

/** The container the latest of `replies` that ran in one ran in. */
function latestContainer(replies: readonly AnthropicReply[]) {
  return replies.findLast((reply) => reply.container)?.container ?? undefined;
}

/**
 * The replies of one paused answer as one: their blocks in order, the last stop reason, the usage summed, the
 * latest container.
 */
function mergeReplies(replies: readonly AnthropicReply[]): AnthropicReply {
  const [first] = replies as [AnthropicReply, ...AnthropicReply[]];
  if (replies.length === 1) return first;
  const container = latestContainer(replies);
  return {
    id: first.id,
    content: replies.flatMap((reply) => reply.content),
    stop_reason: replies[replies.length - 1]?.stop_reason ?? null,
    usage: sumUsage(replies.map((reply) => reply.usage)),
    ...(container && { container }),
  };
}

/** Every continuation is billed for its whole prompt and output: the counts of the replies add up. */
function sumUsage(usages: readonly (object | null)[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const usage of usages) {
    for (const [key, value] of Object.entries(usage ?? {})) {
      if (typeof value === 'number') total[key] = (total[key] ?? 0) + value;
    }
  }
  return total;
}

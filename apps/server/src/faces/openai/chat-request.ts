import { z } from 'zod';
import { clientText } from '../../internal/client-text.js';
import { imageUrlProblem } from '../../internal/image-url.js';
import { invalidRequest } from './openai-error.js';
import {
  integerSchema,
  metadataSchema,
  toolChoiceSchema,
  toolsSchema,
  typedFormatSchema,
} from './parameter-schemas.js';

/** One part of a message's `content` array (text, and image parts in a user message; others are refused when read). */
const contentPartSchema = z.looseObject({
  type: z.string().min(1),
  text: z.string().nullish(),
  image_url: z.union([z.string(), z.looseObject({ url: z.string() })]).nullish(),
});

/** A Chat Completions message, as the reference reads it (`tool_calls`, `name`, ... are accepted and ignored). */
export const chatMessageSchema = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(contentPartSchema)]).nullish(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** `stop`: up to 4 sequences, the answer ending before the first of them it holds. */
const stopSchema = z.union([z.string().min(1), z.array(z.string().min(1)).max(4)], {
  error: 'expected a non-empty string or an array of at most 4 non-empty strings',
});

/** `function_call` (the deprecated form of `tool_choice`): a mode, or an object naming a function. */
const functionCallSchema = z.union([z.enum(['none', 'auto']), z.looseObject({ name: z.string().min(1) })], {
  error: "expected 'none', 'auto' or an object naming a function",
});

/**
 * `POST /v1/chat/completions` body: `model` (one of `GET /v1/models`), `messages`, `stream`,
 * `stream_options.include_usage`, `stop` (honoured), and every parameter the gateway reads to refuse what it cannot
 * honour (`unsupported-parameters`), each with OpenAI's type, so no reader sees a value of another. Other options
 * (`temperature`, `seed`, `user`, ...) are accepted unchecked and ignored: the agent's own configuration decides
 * sampling.
 */
export const chatCompletionRequestSchema = z
  .looseObject({
    model: z.string().min(1),
    messages: z.array(chatMessageSchema).min(1),
    stream: z.boolean().nullish(),
    stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
    stop: stopSchema.nullish(),
    n: integerSchema(1, 128).nullish(),
    logprobs: z.boolean().nullish(),
    top_logprobs: integerSchema(0, 20).nullish(),
    response_format: typedFormatSchema.nullish(),
    modalities: z.array(z.enum(['text', 'audio'])).nullish(),
    audio: z.looseObject({}).nullish(),
    tools: toolsSchema.nullish(),
    tool_choice: toolChoiceSchema.nullish(),
    parallel_tool_calls: z.boolean().nullish(),
    functions: z.array(z.looseObject({ name: z.string().min(1) })).nullish(),
    function_call: functionCallSchema.nullish(),
    max_tokens: integerSchema(1, Number.MAX_SAFE_INTEGER).nullish(),
    max_completion_tokens: integerSchema(1, Number.MAX_SAFE_INTEGER).nullish(),
    store: z.boolean().nullish(),
    metadata: metadataSchema.nullish(),
    web_search_options: z.looseObject({}).nullish(),
    logit_bias: z.record(z.string(), z.number().min(-100).max(100)).nullish(),
  })
  .describe('An OpenAI Chat Completions request; the agent answers the latest user message');
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

/** A user message's content as the conversation takes it: text parts, and images by URL. */
export type UserContentPart =
  | { type: 'text'; text: string; cache_prompt: false }
  | { type: 'image'; image_urls: string[]; cache_prompt: false };

function partsOf(message: ChatMessage, index: number): UserContentPart[] {
  const content = message.content;
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content, cache_prompt: false }];
  return content.flatMap((part, partIndex): UserContentPart[] => {
    if (part.type === 'text') return part.text ? [{ type: 'text', text: part.text, cache_prompt: false }] : [];
    // OpenAI takes images in user messages only: one in a system message could not reach the agent's system text.
    if (part.type === 'image_url' && message.role === 'user') {
      const url = typeof part.image_url === 'string' ? part.image_url : part.image_url?.url;
      if (url === undefined || url === '') {
        throw invalidRequest(
          'An image_url content part has no url',
          `messages[${index}].content[${partIndex}].image_url`,
        );
      }
      const problem = imageUrlProblem(url);
      if (problem !== undefined) {
        throw invalidRequest(`Invalid image_url: ${problem}`, `messages[${index}].content[${partIndex}].image_url`);
      }
      return [{ type: 'image', image_urls: [url], cache_prompt: false }];
    }
    throw invalidRequest(
      `Unsupported content part type '${clientText(part.type)}' in a ${message.role} message (${message.role === 'user' ? 'text and image_url are' : 'text is'})`,
      `messages[${index}].content[${partIndex}].type`,
      'unsupported_value',
    );
  });
}

function textOf(message: ChatMessage, index: number): string {
  return partsOf(message, index)
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** What the agent is given from a request: the latest user message, and the system/developer text. */
export interface ChatTurn {
  /** The content of the last `user` message: the one message the agent is sent (as the reference). */
  user: UserContentPart[];
  /** `system` and `developer` messages' text, joined: appended to the agent's system message suffix. */
  system: string;
}

/**
 * The reference's reading of `messages`: the agent gets the latest user message; system and developer texts
 * join its system message suffix; earlier user and assistant turns are not replayed (continue a conversation
 * with `X-OpenHands-ServerConversation-ID` instead). Throws an `invalid_request_error` when there is no user message,
 * or when an assistant or tool message follows the last one.
 */
export function chatTurnOf(request: ChatCompletionRequest): ChatTurn {
  const index = request.messages.findLastIndex((message) => message.role === 'user');
  const last = request.messages[index];
  if (last === undefined) throw invalidRequest('At least one user message is required', 'messages');
  const after = request.messages.findIndex(
    (message, position) => position > index && (message.role === 'assistant' || message.role === 'tool'),
  );
  if (after >= 0) {
    // Answering the older user message again would drop what follows it (a tool's result, most often).
    throw invalidRequest(
      `messages[${after}] is a '${request.messages[after]?.role}' message after the last user message: the agent answers the latest user message and runs its own tools, so it never waits for a tool result or continues an assistant message (continue a conversation with the X-OpenHands-ServerConversation-ID header and a user message)`,
      `messages[${after}].role`,
      'unsupported_value',
    );
  }
  const user = partsOf(last, index);
  if (user.length === 0) throw invalidRequest('The last user message has no content', `messages[${index}].content`);
  const system = request.messages
    .map((message, messageIndex) =>
      message.role === 'system' || message.role === 'developer' ? textOf(message, messageIndex) : '',
    )
    .filter((text) => text.trim() !== '')
    .join('\n\n');
  return { user, system };
}

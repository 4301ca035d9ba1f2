import { z } from 'zod';
import { clientText } from '../../internal/client-text.js';
import { imageUrlProblem } from '../../internal/image-url.js';
import type { ChatTurn, UserContentPart } from './chat-request.js';
import { invalidRequest } from './openai-error.js';
import {
  integerSchema,
  metadataSchema,
  toolChoiceSchema,
  toolsSchema,
  typedFormatSchema,
} from './parameter-schemas.js';

/** One part of an input message's `content` array: `input_text`, `input_image`, an assistant's `output_text`, ... */
const inputContentSchema = z.looseObject({
  type: z.string().min(1),
  text: z.string().nullish(),
  image_url: z.string().nullish(),
  file_id: z.string().nullish(),
});

/**
 * One item of `input`: a message (`type: 'message'`, or no type, as the SDK's `EasyInputMessage`), or another item
 * kind (`function_call`, `function_call_output`, `reasoning`, ...) read as history only.
 */
const inputItemSchema = z.looseObject({
  type: z.string().min(1).nullish(),
  role: z.string().nullish(),
  content: z.union([z.string(), z.array(inputContentSchema)]).nullish(),
});
type InputItem = z.infer<typeof inputItemSchema>;

/** OpenAI's `reasoning.summary` (and the deprecated `reasoning.generate_summary`). */
const reasoningSummarySchema = z.enum(['auto', 'concise', 'detailed']);

/**
 * `POST /v1/responses` body: `model` (one of `GET /v1/models`), `input`, `instructions`, `previous_response_id`,
 * `metadata`, `stream`, `store`, `parallel_tool_calls` (echoed), and every parameter the gateway reads to refuse what it cannot honour
 * (`refuseUnsupportedResponseParameters`), each with OpenAI's type, so no reader sees a value of another. Other
 * options (`temperature`, `reasoning.effort`, `truncation`, ...) are accepted unchecked and ignored: the agent's own
 * configuration decides sampling.
 */
export const responsesRequestSchema = z
  .looseObject({
    model: z.string().min(1),
    input: z.union([z.string(), z.array(inputItemSchema)]).nullish(),
    instructions: z.string().nullish(),
    previous_response_id: z.string().min(1).nullish(),
    metadata: metadataSchema.nullish(),
    stream: z.boolean().nullish(),
    store: z.boolean().nullish(),
    tools: toolsSchema.nullish(),
    tool_choice: toolChoiceSchema.nullish(),
    background: z.boolean().nullish(),
    text: z.looseObject({ format: typedFormatSchema.nullish() }).nullish(),
    top_logprobs: integerSchema(0, 20).nullish(),
    include: z.array(z.string()).nullish(),
    reasoning: z
      .looseObject({
        summary: reasoningSummarySchema.nullish(),
        generate_summary: reasoningSummarySchema.nullish(),
      })
      .nullish(),
    parallel_tool_calls: z.boolean().nullish(),
    max_output_tokens: integerSchema(1, Number.MAX_SAFE_INTEGER).nullish(),
    max_tool_calls: integerSchema(0, Number.MAX_SAFE_INTEGER).nullish(),
    conversation: z
      .union([z.string().min(1), z.looseObject({ id: z.string().min(1) })], {
        error: 'expected a conversation id or an object with its id',
      })
      .nullish(),
    prompt: z.looseObject({ id: z.string().min(1) }).nullish(),
  })
  .describe('An OpenAI Responses request; the agent answers the latest user message of `input`');
export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;

const MESSAGE_ROLES = new Set(['user', 'system', 'developer', 'assistant']);

/** The kind of an item: a message when it says so or has a role (the SDK's `EasyInputMessage` has no type). */
function kindOf(item: InputItem): string {
  return item.type ?? (item.role === undefined || item.role === null ? 'unknown' : 'message');
}

function isMessage(item: InputItem, index: number): boolean {
  if (kindOf(item) !== 'message') return false;
  if (typeof item.role !== 'string' || !MESSAGE_ROLES.has(item.role)) {
    throw invalidRequest(
      `Invalid value '${clientText(item.role)}' for a message's role: user, system, developer or assistant`,
      `input[${index}].role`,
      'invalid_value',
    );
  }
  return true;
}

function imageOf(part: z.infer<typeof inputContentSchema>, param: string): UserContentPart {
  if (typeof part.image_url === 'string' && part.image_url !== '') {
    const problem = imageUrlProblem(part.image_url);
    if (problem !== undefined) throw invalidRequest(`Invalid image_url: ${problem}`, `${param}.image_url`);
    return { type: 'image', image_urls: [part.image_url], cache_prompt: false };
  }
  if (typeof part.file_id === 'string') {
    throw invalidRequest(
      'Unsupported value: an input_image by file_id: the gateway serves no Files API, send image_url (a URL or a data: URL)',
      `${param}.file_id`,
      'unsupported_value',
    );
  }
  throw invalidRequest('An input_image content part has no image_url', `${param}.image_url`);
}

/** A message's content as the conversation takes it: text, and for a user message images by URL. */
function partsOf(item: InputItem, index: number): UserContentPart[] {
  const content = item.content;
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content, cache_prompt: false }];
  return content.flatMap((part, partIndex): UserContentPart[] => {
    const param = `input[${index}].content[${partIndex}]`;
    if (part.type === 'input_text') return part.text ? [{ type: 'text', text: part.text, cache_prompt: false }] : [];
    if (part.type === 'input_image' && item.role === 'user') return [imageOf(part, param)];
    throw invalidRequest(
      `Unsupported content part type '${clientText(part.type)}' in a ${item.role} message (${item.role === 'user' ? 'input_text and input_image are' : 'input_text is'})`,
      `${param}.type`,
      'unsupported_value',
    );
  });
}

const textOf = (item: InputItem, index: number): string =>
  partsOf(item, index)
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');

/**
 * The chat face's reading of a turn, for `input`: the agent gets the latest user message; `instructions` and
 * system/developer messages join its system message suffix; earlier items (assistant messages, function calls and
 * their outputs) are history it is not sent again (continue a conversation with `previous_response_id` instead).
 * Throws an `invalid_request_error` when there is no user message, or when anything but a system or developer message
 * follows the last one: the agent answers the latest user message and runs its own tools, so it never continues an
 * assistant message or takes a function call's output.
 */
export function responsesTurnOf(request: ResponsesRequest): ChatTurn {
  const input = request.input;
  const items: InputItem[] =
    typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : (input ?? []);
  const messages = items.map((item, index) => isMessage(item, index));
  const index = items.findLastIndex((item, position) => messages[position] === true && item.role === 'user');
  const last = items[index];
  if (last === undefined) throw invalidRequest('input must hold a user message', 'input');
  const after = items.findIndex(
    (item, position) =>
      position > index && !(messages[position] === true && (item.role === 'system' || item.role === 'developer')),
  );
  if (after >= 0) {
    const item = items[after] as InputItem;
    throw invalidRequest(
      `input[${after}] is ${messages[after] === true ? `an '${item.role}' message` : `a '${kindOf(item)}' item`} after the last user message: the agent answers the latest user message and runs its own tools, so it never continues an assistant message or takes a function call's output (continue with previous_response_id and a user message)`,
      `input[${after}]`,
      'unsupported_value',
    );
  }
  const user = partsOf(last, index);
  if (user.length === 0) throw invalidRequest('The last user message has no content', `input[${index}].content`);
  const system = [
    request.instructions ?? '',
    ...items.map((item, position) =>
      messages[position] === true && (item.role === 'system' || item.role === 'developer')
        ? textOf(item, position)
        : '',
    ),
  ]
    .filter((text) => text.trim() !== '')
    .join('\n\n');
  return { user, system };
}

import { pythonStrip } from '../registry/reference-kinds/python-text.js';
import type { Message, MessageToolCall, ReasoningItem } from '../schemas/content.js';
import type {
  ResponseFunctionCallOutputItem,
  ResponseFunctionToolCall,
  ResponseInputImage,
  ResponseInputMessageItem,
  ResponseInputText,
  ResponseReasoningItem,
} from './openai-wire-types.js';
import { truncateToolText } from './truncate-tool-text.js';

/**
 * A prior assistant turn replayed as input. The reference sends `output_text` parts without the `id`
 * and `status` an output message has, which the Responses API accepts for input.
 */
export interface ResponsesAssistantMessageItem {
  type: 'message';
  role: 'assistant';
  content: { type: 'output_text'; text: string }[];
}

export type ResponsesInputItem =
  | ResponseInputMessageItem
  | ResponsesAssistantMessageItem
  | ResponseFunctionToolCall
  | ResponseFunctionCallOutputItem
  | ResponseReasoningItem;

export interface ResponsesInputOptions {
  /** Send images (input_image, detail "auto"); default false drops them. */
  visionEnabled?: boolean;
}

export interface ResponsesInput {
  /**
   * The system messages: each one's non-empty texts joined with "\n" and trimmed, the non-empty ones
   * joined with "\n\n---\n\n" (as the reference does). `null` when there is none, e.g. after a
   * condensation that forgot the system prompt, where the reference sends `instructions: null`.
   */
  instructions: string | null;
  input: ResponsesInputItem[];
}

/**
 * Renders messages as OpenAI Responses API `instructions` + `input` (reference §2.3): system → the
 * instructions; user → one input message; assistant → reasoning item (only when it has an id; with its
 * `encrypted_content`, which stateless `store: false` calls need back, as the reference's
 * `responses_serialization.py` sends it), output_text message for non-empty texts, one function_call per tool call;
 * tool → one function_call_output per text part (truncated) and per image URL when vision is on.
 */
export function toResponsesInput(messages: readonly Message[], options: ResponsesInputOptions = {}): ResponsesInput {
  const vision = options.visionEnabled ?? false;
  let instructions: string | null = null;
  const input: ResponsesInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system': {
        const text = systemText(message);
        if (text) instructions = instructions === null ? text : `${instructions}\n\n---\n\n${text}`;
        break;
      }
      case 'user':
        input.push(userItem(message, vision));
        break;
      case 'assistant':
        pushAssistantItems(input, message);
        break;
      case 'tool':
        pushToolItems(input, message, vision);
        break;
    }
  }
  return { instructions, input };
}

function systemText(message: Message): string {
  const parts: string[] = [];
  for (const part of message.content) if (part.type === 'text' && part.text) parts.push(part.text);
  return pythonStrip(parts.join('\n'));
}

function userItem(message: Message, vision: boolean): ResponseInputMessageItem {
  const content: (ResponseInputText | ResponseInputImage)[] = [];
  for (const part of message.content) {
    if (part.type === 'text') content.push({ type: 'input_text', text: part.text });
    else if (vision)
      for (const url of part.image_urls) content.push({ type: 'input_image', image_url: url, detail: 'auto' });
  }
  if (content.length === 0) content.push({ type: 'input_text', text: '' });
  return { type: 'message', role: 'user', content };
}

function pushAssistantItems(input: ResponsesInputItem[], message: Message): void {
  const reasoning = reasoningItem(message.responses_reasoning_item);
  if (reasoning !== undefined) input.push(reasoning);
  const content: ResponsesAssistantMessageItem['content'] = [];
  for (const part of message.content)
    if (part.type === 'text' && part.text) content.push({ type: 'output_text', text: part.text });
  if (content.length > 0) input.push({ type: 'message', role: 'assistant', content });
  for (const call of message.tool_calls ?? []) input.push(functionCallItem(call));
}

/** Echo the original item id; otherwise derive one with the `fc` prefix the API requires (§2.1). */
export function functionCallItem(call: MessageToolCall): ResponseFunctionToolCall {
  // `||` as the reference's `or`: an empty recorded id is no id (the API refuses an empty one).
  const id = call.responses_item_id || (call.id.startsWith('fc') ? call.id : `fc_${call.id}`);
  return { type: 'function_call', id, call_id: call.id, name: call.name, arguments: call.arguments };
}

function reasoningItem(item: ReasoningItem | undefined): ResponseReasoningItem | undefined {
  if (item?.id === undefined) return undefined;
  const out: ResponseReasoningItem = {
    type: 'reasoning',
    id: item.id,
    summary: item.summary.map((text) => ({ type: 'summary_text', text })),
  };
  if (item.content !== undefined && item.content.length > 0) {
    out.content = item.content.map((text) => ({ type: 'reasoning_text', text }));
  }
  if (item.encrypted_content) out.encrypted_content = item.encrypted_content;
  // The status is echoed as recorded; the reference types it as a free string.
  if (item.status) out.status = item.status as ResponseReasoningItem['status'];
  return out;
}

function pushToolItems(input: ResponsesInputItem[], message: Message, vision: boolean): void {
  const callId = message.tool_call_id;
  if (callId === undefined) return;
  for (const part of message.content) {
    if (part.type === 'text') {
      input.push({ type: 'function_call_output', call_id: callId, output: truncateToolText(part.text) });
    } else if (vision) {
      for (const url of part.image_urls) {
        input.push({
          type: 'function_call_output',
          call_id: callId,
          output: [{ type: 'input_image', image_url: url, detail: 'auto' }],
        });
      }
    }
  }
}

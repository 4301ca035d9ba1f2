import { createEvent } from '../create/create-event.js';
import { newEventId } from '../create/ids.js';
import { ChatImportError } from '../errors/chat-import-error.js';
import type { ContentPart, ImageContent, TextContent } from '../schemas/content.js';
import type { AnyEvent } from '../schemas/events.js';
import type { ActionEvent } from '../schemas/llm-convertible-events.js';
import { checkChatMessage } from './check-chat-message.js';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageParam,
  ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam,
} from './openai-wire-types.js';

/** Observation kind of imported tool results: the tool's output is known only as its content (text and images). */
export const IMPORTED_OBSERVATION_KIND = 'ImportedObservation';

/**
 * Imports an OpenAI Chat Completions history as events, so a conversation started elsewhere can be
 * continued: system/developer → SystemPromptEvent (no tools); user → user MessageEvent; assistant
 * with tool calls → one ActionEvent per call sharing a new `llm_response_id` (text and
 * `reasoning_content` on the first; `action` absent since no tool validated it); other assistant
 * turns → agent MessageEvent; tool → ObservationEvent of kind `ImportedObservation` answering the
 * matching ActionEvent, its `content` the result's text and `image_url` parts (each image an `ImageContent`, as a
 * user message's). Throws `ChatImportError` naming the message index and field for a tool result that answers an
 * unknown call or one an earlier result answered, the legacy `function` role, audio/file parts, an image part without a URL or custom tool calls, and
 * for a message whose shape does not fit the wire type (JSON from outside: `content: 42`, `tool_calls: false`).
 */
export function fromChatCompletionsMessages(chatMessages: readonly ChatCompletionMessageParam[]): AnyEvent[] {
  const events: AnyEvent[] = [];
  const actionsByCallId = new Map<string, ActionEvent>();
  // The message that answered each call: the View sends one result per call, so a second would be dropped unseen.
  const answeredAt = new Map<ActionEvent, number>();
  if (!Array.isArray(chatMessages)) {
    throw new ChatImportError({ index: 0, path: '(messages)', message: 'expected an array of messages' });
  }
  chatMessages.forEach((message, index) => {
    checkChatMessage(message, index);
    switch (message.role) {
      case 'system':
      case 'developer': {
        const text = textOf(message.content, index);
        events.push(
          createEvent('SystemPromptEvent', { source: 'agent', system_prompt: { type: 'text', text }, tools: [] }),
        );
        break;
      }
      case 'user':
        events.push(
          createEvent('MessageEvent', {
            source: 'user',
            llm_message: { role: 'user', content: userContent(message.content, index) },
            ...senderOf(message),
          }),
        );
        break;
      case 'assistant':
        for (const event of assistantEvents(message, index)) {
          events.push(event);
          if (event.kind === 'ActionEvent') actionsByCallId.set(event.tool_call_id, event);
        }
        break;
      case 'tool': {
        const action = actionsByCallId.get(message.tool_call_id);
        if (action === undefined) {
          throw new ChatImportError({
            index,
            path: 'tool_call_id',
            message: `answers tool call ${message.tool_call_id}, which no earlier assistant message made`,
          });
        }
        const answered = answeredAt.get(action);
        if (answered !== undefined) {
          throw new ChatImportError({
            index,
            path: 'tool_call_id',
            message: `answers tool call ${message.tool_call_id}, which message ${answered} already answered`,
          });
        }
        answeredAt.set(action, index);
        events.push(
          createEvent('ObservationEvent', {
            source: 'environment',
            tool_name: action.tool_name,
            tool_call_id: message.tool_call_id,
            action_id: action.id,
            observation: {
              kind: IMPORTED_OBSERVATION_KIND,
              content: toolContent(message.content, index),
              is_error: false,
            },
          }),
        );
        break;
      }
      default:
        throw new ChatImportError({ index, path: 'role', message: `role "${message.role}" is not supported` });
    }
  });
  return events;
}

function assistantEvents(message: ChatCompletionAssistantMessageParam, index: number): AnyEvent[] {
  const content = assistantText(message, index);
  const reasoning = (message as { reasoning_content?: unknown }).reasoning_content;
  const reasoningContent = typeof reasoning === 'string' && reasoning !== '' ? { reasoning_content: reasoning } : {};
  const calls = message.tool_calls ?? [];
  if (calls.length === 0) {
    return [
      createEvent('MessageEvent', {
        source: 'agent',
        llm_message: { role: 'assistant', content, ...reasoningContent },
        ...senderOf(message),
      }),
    ];
  }
  const llmResponseId = `imported-${newEventId()}`;
  return calls.map((call, callIndex) => {
    if (call.type !== 'function') {
      throw new ChatImportError({
        index,
        path: `tool_calls[${callIndex}].type`,
        message: `tool call type "${call.type}" is not supported`,
      });
    }
    return createEvent('ActionEvent', {
      source: 'agent',
      thought: callIndex === 0 ? content : [],
      ...(callIndex === 0 ? reasoningContent : {}),
      tool_name: call.function.name,
      tool_call_id: call.id,
      tool_call: { id: call.id, name: call.function.name, arguments: call.function.arguments, origin: 'completion' },
      llm_response_id: llmResponseId,
    });
  });
}

/** A message's `name` as the event's `sender` (JSON from Python may carry `name: null`: no sender). */
function senderOf(message: { name?: string | null }): { sender?: string } {
  return typeof message.name === 'string' ? { sender: message.name } : {};
}

/** An assistant turn's text; a refusal-only turn (`content: null`, `refusal: '…'`) is its refusal's text. */
function assistantText(message: ChatCompletionAssistantMessageParam, index: number): TextContent[] {
  const content = message.content;
  const refusal = (message as { refusal?: unknown }).refusal;
  if (content === null || content === undefined || content === '') {
    return typeof refusal === 'string' && refusal !== '' ? [text(refusal)] : [];
  }
  if (typeof content === 'string') return [text(content)];
  return content.map((part, partIndex) => {
    if (part.type === 'text') return text(part.text);
    if (part.type === 'refusal') return text(part.refusal);
    throw unsupportedPart(index, partIndex, (part as { type: string }).type);
  });
}

function userContent(content: ChatCompletionUserMessageParam['content'], index: number): ContentPart[] {
  if (typeof content === 'string') return [text(content)];
  return content.map((part, partIndex): ContentPart => {
    if (part.type === 'text') return text(part.text);
    if (part.type === 'image_url') return image(part, index, partIndex);
    throw unsupportedPart(index, partIndex, part.type);
  });
}

/** A tool result's text and images: the observation's content, in order. */
function toolContent(content: ChatCompletionToolMessageParam['content'], index: number): ContentPart[] {
  if (typeof content === 'string') return [text(content)];
  return content.map((part, partIndex): ContentPart => {
    if (part.type === 'text' && typeof part.text === 'string') return text(part.text);
    if (part.type === 'image_url') return image(part, index, partIndex);
    throw unsupportedPart(index, partIndex, (part as { type: string }).type);
  });
}

/**
 * An `image_url` part as an `ImageContent` of its one URL (an http(s) URL or a `data:` URI, kept as given). Checked
 * because the import also takes JSON from outside: a part without a URL would otherwise be an image of nothing.
 */
function image(part: { image_url?: { url?: unknown } }, index: number, partIndex: number): ImageContent {
  const url = part.image_url?.url;
  if (typeof url !== 'string' || url === '') {
    throw new ChatImportError({
      index,
      path: `content[${partIndex}].image_url.url`,
      message: 'an image_url part must carry a URL',
    });
  }
  return { cache_prompt: false, type: 'image', image_urls: [url] };
}

function textParts(content: string | readonly { type: string; text?: string }[], index: number): TextContent[] {
  if (typeof content === 'string') return [text(content)];
  return content.map((part, partIndex) => {
    if (part.type !== 'text' || typeof part.text !== 'string') throw unsupportedPart(index, partIndex, part.type);
    return text(part.text);
  });
}

function textOf(content: string | readonly { type: string; text?: string }[], index: number): string {
  return textParts(content, index)
    .map((part) => part.text)
    .join('\n');
}

function text(value: string): TextContent {
  return { cache_prompt: false, type: 'text', text: value };
}

function unsupportedPart(index: number, partIndex: number, type: string): ChatImportError {
  return new ChatImportError({
    index,
    path: `content[${partIndex}].type`,
    message: `content part type "${type}" cannot be represented in an event`,
  });
}

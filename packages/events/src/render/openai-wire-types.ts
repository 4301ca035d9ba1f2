/**
 * The slices of the OpenAI wire format this package reads and writes, declared here instead of imported from the
 * `openai` package: @x/events depends on zod only, and its published types must typecheck for consumers who never
 * install `openai`. They are structurally compatible with the SDK's own types (`ChatCompletionMessageParam`,
 * `ResponseInputItem`, ...), so values flow between the two without casts.
 */

export interface ChatCompletionContentPartText {
  type: 'text';
  text: string;
}

/** An image part as rendered: only the detail levels every openai release in the supported range accepts. */
export interface ChatCompletionContentPartImage {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

/**
 * An image part as imported. Its `detail` takes `original` as well, which the SDK's type allows since openai 7.26:
 * without it a history typed with that SDK would not typecheck against `fromChatCompletionsMessages`. The import
 * keeps the URL only, so any level is accepted.
 */
export interface ChatCompletionContentPartImageInput {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' | 'original' };
}

export interface ChatCompletionContentPartRefusal {
  type: 'refusal';
  refusal: string;
}

/** Parts this package does not import (audio, files): named so an import can reject them by `type`. */
export interface ChatCompletionContentPartOther {
  type: 'input_audio' | 'file';
}

export interface ChatCompletionMessageFunctionToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatCompletionMessageCustomToolCall {
  id: string;
  type: 'custom';
  custom: { name: string; input: string };
}

export interface ChatCompletionSystemMessageParam {
  role: 'system' | 'developer';
  content: string | ChatCompletionContentPartText[];
  name?: string;
}

export interface ChatCompletionUserMessageParam {
  role: 'user';
  content:
    | string
    | (ChatCompletionContentPartText | ChatCompletionContentPartImageInput | ChatCompletionContentPartOther)[];
  name?: string;
}

export interface ChatCompletionAssistantMessageParam {
  role: 'assistant';
  content?: string | (ChatCompletionContentPartText | ChatCompletionContentPartRefusal)[] | null;
  name?: string;
  refusal?: string | null;
  tool_calls?: (ChatCompletionMessageFunctionToolCall | ChatCompletionMessageCustomToolCall)[];
}

/**
 * A tool result. Its content may hold `image_url` parts, which OpenAI's own type does not allow: the reference sends
 * a tool result's images so with vision on (§2.3), LiteLLM and other compatible servers take them, and LangChain's
 * `ToolMessage` carries them; the import keeps them as the observation's images.
 */
export interface ChatCompletionToolMessageParam {
  role: 'tool';
  content: string | (ChatCompletionContentPartText | ChatCompletionContentPartImageInput)[];
  tool_call_id: string;
}

/** The legacy `function` role, which the import rejects. */
export interface ChatCompletionFunctionMessageParam {
  role: 'function';
  content: string | null;
  name: string;
}

export type ChatCompletionMessageParam =
  | ChatCompletionSystemMessageParam
  | ChatCompletionUserMessageParam
  | ChatCompletionAssistantMessageParam
  | ChatCompletionToolMessageParam
  | ChatCompletionFunctionMessageParam;

export interface ResponseInputText {
  type: 'input_text';
  text: string;
}

export interface ResponseInputImage {
  type: 'input_image';
  image_url?: string | null;
  detail: 'low' | 'high' | 'auto';
}

export interface ResponseInputMessageItem {
  type?: 'message';
  role: 'user' | 'system' | 'developer';
  content: (ResponseInputText | ResponseInputImage)[];
}

export interface ResponseFunctionToolCall {
  type: 'function_call';
  id?: string;
  call_id: string;
  name: string;
  arguments: string;
  status?: 'in_progress' | 'completed' | 'incomplete';
}

export interface ResponseFunctionCallOutputItem {
  type: 'function_call_output';
  call_id: string;
  output: string | (ResponseInputText | ResponseInputImage)[];
  id?: string | null;
}

export interface ResponseReasoningItem {
  type: 'reasoning';
  id: string;
  summary: { type: 'summary_text'; text: string }[];
  content?: { type: 'reasoning_text'; text: string }[];
  encrypted_content?: string | null;
  status?: 'in_progress' | 'completed' | 'incomplete';
}

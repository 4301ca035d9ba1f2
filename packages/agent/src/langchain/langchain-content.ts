import { type AnyThinkingBlock, anyThinkingBlockSchema, ChatImportError } from '@x/events';
import type { LangChainContentBlock, LangChainMessage } from './langchain-message.js';

/** A tool call found only in an AI message's content (a `tool_use` or v1 `tool_call` block with no `tool_calls` entry). */
export interface ContentToolCall {
  id: string | undefined;
  name: string;
  arguments: string;
}

/** What an AI message's content holds, in the places events keep it. */
export interface AiContent {
  text: string;
  /** The text of `reasoning` blocks (LangChain v1's standard blocks), joined. */
  reasoning: string;
  /** Anthropic's `thinking` and `redacted_thinking` blocks, signatures included (ChatAnthropic keeps them here). */
  thinkingBlocks: AnyThinkingBlock[];
  calls: ContentToolCall[];
}

/** The blocks that repeat a tool call of the message (ChatAnthropic's `tool_use`, v1's `tool_call`, a stream's chunk). */
const CALL_BLOCKS = new Set(['tool_use', 'tool_call', 'tool_call_chunk']);

export function unsupportedBlock(index: number, blockIndex: number, block: LangChainContentBlock): ChatImportError {
  return new ChatImportError({
    index,
    path: `content[${blockIndex}].type`,
    message: `a LangChain content block of type "${block.type}" cannot be represented in an event`,
  });
}

/**
 * An AI message's content as events hold it: text blocks, reasoning (`reasoning` blocks), Anthropic thinking blocks
 * (kept whole: a continuation on Anthropic must send them back), and the tool calls content blocks name that
 * `tool_calls` does not (those it does are the same calls, written twice by the provider's format: ChatAnthropic's
 * `tool_use`, LangChain v1's `tool_call`, ChatGoogleGenerativeAI's `functionCall`).
 */
export function aiContent(message: LangChainMessage, index: number): AiContent {
  const out: AiContent = { text: '', reasoning: '', thinkingBlocks: [], calls: [] };
  if (typeof message.content === 'string') return { ...out, text: message.content };
  const known = new Set(
    [...(message.tool_calls ?? []), ...(message.invalid_tool_calls ?? [])].map((call) => call.id).filter(Boolean),
  );
  const texts: string[] = [];
  const reasoning: string[] = [];
  const streamedInputs = streamedToolInputs(message.content);
  const repeatsGeminiCall = geminiCallMatcher(message);
  message.content.forEach((block, blockIndex) => {
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (block.type === 'reasoning' && typeof block.reasoning === 'string') reasoning.push(block.reasoning);
    else if (block.type === 'thinking' || block.type === 'redacted_thinking') {
      const parsed = anyThinkingBlockSchema.safeParse(
        block.type === 'thinking'
          ? { type: 'thinking', thinking: block.thinking, signature: block.signature ?? undefined }
          : { type: 'redacted_thinking', data: block.data },
      );
      if (!parsed.success) throw unsupportedBlock(index, blockIndex, block);
      out.thinkingBlocks.push(parsed.data);
    } else if (CALL_BLOCKS.has(block.type) && typeof block.name === 'string') {
      const id = typeof block.id === 'string' ? block.id : undefined;
      if (id !== undefined && known.has(id)) return;
      const args = block.type === 'tool_use' ? toolUseInput(block, streamedInputs) : block.args;
      out.calls.push({ id, name: block.name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) });
    } else if (block.type === GEMINI_CALL && isGeminiCall(block.functionCall)) {
      const { name, args } = block.functionCall;
      if (!repeatsGeminiCall(name, args))
        out.calls.push({ id: undefined, name, arguments: JSON.stringify(args ?? {}) });
    } else if (block.type === INPUT_JSON_DELTA && streamedInputs.tools.has(block.index)) return;
    else if (!CALL_BLOCKS.has(block.type)) throw unsupportedBlock(index, blockIndex, block);
  });
  return { ...out, text: texts.join('\n'), reasoning: reasoning.join('\n') };
}

/**
 * ChatAnthropic streams a tool call's input as `input_json_delta` blocks after its `tool_use` block (`input: ''`),
 * all with the block's `index`; LangChain's `concat` keeps them apart (their types differ). Their pieces, joined by
 * index, are the call's arguments; the `tool_use` indices say which pieces belong to a call.
 */
const INPUT_JSON_DELTA = 'input_json_delta';

interface StreamedInputs {
  pieces: Map<unknown, string>;
  tools: Set<unknown>;
}

function streamedToolInputs(content: readonly LangChainContentBlock[]): StreamedInputs {
  const out: StreamedInputs = { pieces: new Map(), tools: new Set() };
  for (const block of content) {
    if (block.type === 'tool_use' && block.index !== undefined) out.tools.add(block.index);
    if (block.type === INPUT_JSON_DELTA && typeof block.input === 'string') {
      out.pieces.set(block.index, (out.pieces.get(block.index) ?? '') + block.input);
    }
  }
  return out;
}

function toolUseInput(block: LangChainContentBlock, streamed: StreamedInputs): unknown {
  if (typeof block.input !== 'string' || block.index === undefined) return block.input;
  return block.input + (streamed.pieces.get(block.index) ?? '');
}

/**
 * The URL of an image block: `{ type: 'image_url', image_url: { url } | url }` (OpenAI's), v1's `{ type: 'image', url }`
 * or `{ type: 'image', data, mimeType }`, v0.3's `{ type: 'image', source_type: 'base64', data, mime_type }`, and
 * Anthropic's `{ type: 'image', source: { type: 'base64', media_type, data } | { type: 'url', url } }`; base64 data as
 * a `data:` URL (how events hold inline images).
 */
export function imageUrl(block: LangChainContentBlock): string | undefined {
  if (block.type === 'image_url') {
    const value = block.image_url;
    if (typeof value === 'string') return value;
    if (typeof value === 'object' && value !== null && typeof (value as { url?: unknown }).url === 'string') {
      return (value as { url: string }).url;
    }
    return undefined;
  }
  if (block.type !== 'image') return undefined;
  if (typeof block.url === 'string') return block.url;
  const source = block.source as { type?: unknown; url?: unknown; media_type?: unknown; data?: unknown } | undefined;
  if (typeof source === 'object' && source !== null) {
    if (source.type === 'url' && typeof source.url === 'string') return source.url;
    return dataUrl(source.media_type, source.data);
  }
  return dataUrl(block.mimeType ?? block.mime_type, block.data);
}

function dataUrl(mimeType: unknown, data: unknown): string | undefined {
  if (typeof data !== 'string' || data === '' || typeof mimeType !== 'string' || !/^image\/[\w.+-]+$/.test(mimeType)) {
    return undefined;
  }
  return `data:${mimeType};base64,${data}`;
}

/**
 * ChatGoogleGenerativeAI writes each function call twice: a `functionCall` block (`{ name, args }`, no id) in the
 * content, and a `tool_calls` entry (with the id it made up). A block repeats the first entry not yet matched of the
 * same name and arguments; one that repeats none is a call of its own.
 */
const GEMINI_CALL = 'functionCall';

function isGeminiCall(value: unknown): value is { name: string; args?: unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string';
}

function geminiCallMatcher(message: LangChainMessage): (name: string, args: unknown) => boolean {
  const unmatched = (message.tool_calls ?? []).map((call) => `${call.name}\u0000${JSON.stringify(call.args)}`);
  return (name, args) => {
    const at = unmatched.indexOf(`${name}\u0000${JSON.stringify(args ?? {})}`);
    if (at === -1) return false;
    unmatched.splice(at, 1);
    return true;
  };
}

import type { ContentPart, Message, MessageToolCall } from '../schemas/content.js';
import type {
  AnthropicContentBlock,
  AnthropicImageBlock,
  AnthropicMessageParam,
  AnthropicMessagesInput,
  AnthropicMessagesOptions,
  AnthropicTextBlock,
  AnthropicToolUseBlock,
} from './anthropic-types.js';
import { truncateToolText } from './truncate-tool-text.js';

const ephemeral = Object.freeze({ type: 'ephemeral' as const });

/**
 * Renders messages for the Anthropic Messages API: system texts become `system` blocks; assistant
 * turns carry their thinking blocks first, then text, then one `tool_use` per call (arguments parsed);
 * tool results become `tool_result` blocks in a user turn, and consecutive user-side messages (tool
 * results, then user text) share one user turn with the results first, as Anthropic requires.
 * Empty text blocks and empty turns are dropped (the API rejects them).
 */
export function toAnthropicMessages(
  messages: readonly Message[],
  options: AnthropicMessagesOptions = {},
): AnthropicMessagesInput {
  const settings = { cache: options.cacheEnabled ?? false, vision: options.visionEnabled ?? false };
  const system: AnthropicTextBlock[] = [];
  const out: AnthropicMessageParam[] = [];
  const pushUser = (blocks: AnthropicContentBlock[]) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last?.role === 'user') last.content.push(...blocks);
    else out.push({ role: 'user', content: blocks });
  };
  // Anthropic wants a turn's tool results before its other blocks: a result logged after a user
  // message (a late observation) joins the leading results of that turn.
  const pushToolResult = (block: AnthropicContentBlock) => {
    const last = out[out.length - 1];
    if (last?.role !== 'user') return pushUser([block]);
    let at = 0;
    while (at < last.content.length && last.content[at]?.type === 'tool_result') at++;
    last.content.splice(at, 0, block);
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        for (const block of contentBlocks(message.content, { ...settings, vision: false })) {
          if (block.type === 'text') system.push(block);
        }
        break;
      case 'user':
        pushUser(contentBlocks(message.content, settings));
        break;
      case 'tool':
        pushToolResult(toolResultBlock(message, settings));
        break;
      case 'assistant': {
        const content: AnthropicContentBlock[] = thinkingBlocks(message);
        content.push(...contentBlocks(message.content, settings));
        for (const call of message.tool_calls ?? []) content.push(toolUseBlock(call));
        if (content.length > 0) out.push({ role: 'assistant', content });
        break;
      }
    }
  }
  return { system, messages: out };
}

interface Settings {
  cache: boolean;
  vision: boolean;
}

function thinkingBlocks(message: Message): AnthropicContentBlock[] {
  return message.thinking_blocks.map((block) =>
    block.type === 'thinking'
      ? { type: 'thinking', thinking: block.thinking, signature: block.signature ?? '' }
      : { type: 'redacted_thinking', data: block.data },
  );
}

function contentBlocks(
  content: readonly ContentPart[],
  settings: Settings,
): (AnthropicTextBlock | AnthropicImageBlock)[] {
  const blocks: (AnthropicTextBlock | AnthropicImageBlock)[] = [];
  for (const part of content) {
    const cache = settings.cache && part.cache_prompt;
    if (part.type === 'text') {
      if (part.text === '') continue;
      blocks.push(
        cache ? { type: 'text', text: part.text, cache_control: ephemeral } : { type: 'text', text: part.text },
      );
    } else if (settings.vision) {
      part.image_urls.forEach((url, i) => {
        const block = imageBlock(url);
        if (cache && i === part.image_urls.length - 1) block.cache_control = ephemeral;
        blocks.push(block);
      });
    }
  }
  return blocks;
}

const dataUrlPattern = /^data:([^;,]+);base64,(.*)$/s;

function imageBlock(url: string): AnthropicImageBlock {
  const match = dataUrlPattern.exec(url);
  if (match)
    return { type: 'image', source: { type: 'base64', media_type: match[1] as string, data: match[2] as string } };
  return { type: 'image', source: { type: 'url', url } };
}

function toolUseBlock(call: MessageToolCall): AnthropicToolUseBlock {
  return { type: 'tool_use', id: call.id, name: call.name, input: parseArguments(call.arguments) };
}

/**
 * Anthropic wants the input as an object. Arguments that are not a JSON object (the agent normally
 * repairs these before storing) are kept whole under `arguments` rather than dropped.
 */
function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through: not JSON
  }
  return { arguments: text };
}

function toolResultBlock(message: Message, settings: Settings): AnthropicContentBlock {
  const content: (AnthropicTextBlock | AnthropicImageBlock)[] = [];
  let cache = false;
  for (const block of contentBlocks(message.content, { cache: false, vision: settings.vision })) {
    content.push(block.type === 'text' ? { type: 'text', text: truncateToolText(block.text) } : block);
  }
  for (const part of message.content) if (settings.cache && part.cache_prompt) cache = true;
  return {
    type: 'tool_result',
    tool_use_id: message.tool_call_id ?? '',
    ...(content.length > 0 ? { content } : {}),
    ...(cache ? { cache_control: ephemeral } : {}),
  };
}

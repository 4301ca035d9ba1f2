/**
 * The parts of a `@langchain/core` message this module reads and writes, typed here so that @x/agent's types do
 * not require `@langchain/core` (an optional peer). The messages `toLangChainMessages` returns are real
 * `HumanMessage`, `AIMessage`, `ToolMessage` and `SystemMessage` instances.
 */
export interface LangChainMessage {
  /** LangChain's message type: `human`, `ai`, `tool`, `system` (also `generic`/`developer`, which are refused). */
  readonly type?: string;
  getType?(): string;
  _getType?(): string;
  readonly content: string | readonly LangChainContentBlock[];
  readonly name?: string | undefined;
  readonly tool_calls?: readonly LangChainToolCall[] | undefined;
  readonly invalid_tool_calls?: readonly LangChainInvalidToolCall[] | undefined;
  readonly tool_call_id?: string | undefined;
  /** A `ToolMessage`'s outcome: `'error'` when its tool failed. */
  readonly status?: string | undefined;
  readonly additional_kwargs?: Readonly<Record<string, unknown>> | undefined;
}

/** A content block: `{ type: 'text', text }`, `{ type: 'image_url', image_url: { url } | url }`, or another LangChain block. */
export interface LangChainContentBlock {
  readonly type: string;
  readonly [key: string]: unknown;
}

export interface LangChainToolCall {
  readonly id?: string | undefined;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly type?: 'tool_call' | undefined;
}

/** A tool call whose arguments are not a JSON object (LangChain keeps them as text here). */
export interface LangChainInvalidToolCall {
  readonly id?: string | undefined;
  readonly name?: string | undefined;
  readonly args?: string | undefined;
  readonly error?: string | undefined;
  readonly type?: 'invalid_tool_call' | undefined;
}

/** A message as LangChain stores it (`mapChatMessagesToStoredMessages`): `{ type, data: { content, … } }`. */
export interface LangChainStoredMessage {
  readonly type: string;
  readonly data: {
    readonly content: string | readonly LangChainContentBlock[];
    readonly role?: string | undefined;
    readonly name?: string | undefined;
    readonly tool_call_id?: string | undefined;
    readonly [key: string]: unknown;
  };
}

/** The message's LangChain type, however the instance exposes it (`getType()` in v1, `_getType()` before). */
export function langChainMessageType(message: LangChainMessage): string | undefined {
  if (typeof message.getType === 'function') return message.getType();
  if (typeof message._getType === 'function') return message._getType();
  return message.type;
}

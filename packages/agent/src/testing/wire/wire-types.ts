/** One scripted model turn, rendered by each vendor server in its own wire format. */
export interface WireTurn {
  text?: string;
  /** Anthropic thinking block / Responses reasoning summary / Gemini thought summary. */
  thinking?: string;
  /** Anthropic only: a redacted-thinking block with this opaque data. */
  redactedThinking?: string;
  /**
   * Anthropic only: content blocks sent as given, after the thinking and before the text (the `server_tool_use` and
   * `web_search_tool_result` blocks of Anthropic's server tools, say).
   */
  anthropicBlocks?: ({ type: string } & Record<string, unknown>)[];
  toolCalls?: { id?: string; name: string; arguments: Record<string, unknown> }[];
  /**
   * Anthropic only: the code-execution container the turn ran in (the reply's `container`). A request continuing
   * the turn after a pause, or answering its tool calls, must name it as its `container`.
   */
  container?: { id: string; expires_at: string };
  /** Token counts; default: the prompt's characters / 4, cache counts simulated from the request. */
  usage?: { input?: number; output?: number; reasoning?: number };
  /** Stop because the output limit was reached. */
  truncated?: boolean;
  /**
   * The vendor's own stop reason, instead of the one the turn implies: an Anthropic `stop_reason`
   * (`pause_turn`, `refusal`...) or a Gemini `finishReason` (`MALFORMED_FUNCTION_CALL`...).
   */
  stopReason?: string;
  delayMs?: number;
}

/** Failures every vendor server renders as that vendor does (status, body, error type). */
export type WireFailureKind = 'rate_limit' | 'overloaded' | 'server_error' | 'authentication' | 'context_overflow';

export interface WireFailure {
  error: WireFailureKind;
  delayMs?: number;
}

export type WireReply = WireTurn | WireFailure;

export type WireReplyFunction = (body: Record<string, unknown>, index: number) => WireReply;

/** One request as the server received it, with the protocol checks it failed (empty when it passed). */
export interface WireRequest {
  path: string;
  /** The query string as received (`?key=abc`), or `''`. */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  stream: boolean;
  violations: string[];
}

export interface WireServer {
  /** The base URL to give the vendor's SDK (or x's provider) as its `baseURL`. */
  readonly baseURL: string;
  /** Every model request in arrival order (retries included). */
  readonly requests: WireRequest[];
  /**
   * What this server checks of every request, in words. A request failing a check gets the vendor's
   * 400 `invalid_request` answer naming the check, and the failure is kept in `requests[i].violations`.
   */
  readonly checks: readonly string[];
  /** Queues more replies; they are served before a function script is consulted. */
  push(...replies: WireReply[]): void;
  close(): Promise<void>;
}

export function isFailure(reply: WireReply): reply is WireFailure {
  return 'error' in reply;
}

/** Deterministic stand-in for a tokenizer: a quarter of the characters, at least one. */
export function roughTokens(value: unknown): number {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  return Math.max(1, Math.ceil(text.length / 4));
}

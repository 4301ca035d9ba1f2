import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { splitText } from '../internal/split-text.js';
import { cachePrefix, PrefixCache, startWireServer, type WireAnswer, type WireProtocol } from './wire-server.js';
import {
  roughTokens,
  type WireFailureKind,
  type WireReply,
  type WireReplyFunction,
  type WireServer,
  type WireTurn,
} from './wire-types.js';

type Block = Record<string, unknown> & { type: string };
type Turn = { role: string; content: string | Block[] };

/** The signature this server gives a thinking text; an echo with another signature is rejected. */
function signatureOf(thinking: string): string {
  return `sig_${createHash('sha256').update(thinking).digest('base64')}`;
}

const checks = [
  'the body has model, a positive max_tokens and a non-empty messages list whose roles alternate, starting with user',
  'every assistant turn holding a tool_use this server issued begins with the exact thinking and redacted_thinking blocks of that response (text, signature and data unchanged)',
  'every thinking block carries the signature this server gave its text',
  'every tool_use is answered by a tool_result in the next user turn, tool_results first',
  'at most 4 blocks carry cache_control',
  'with thinking enabled: budget_tokens >= 1024 and below max_tokens, and no temperature',
  'after a pause_turn answer, the next request ends with an assistant turn holding every block answered since the last user turn, unchanged',
  'a request continuing a paused answer that ran in a container, or whose last assistant turn holds a tool_use issued from one, names that container as its `container` (an id or `{ id }`)',
] as const;

const failures: Record<WireFailureKind, { status: number; type: string; message: string }> = {
  rate_limit: {
    status: 429,
    type: 'rate_limit_error',
    message: 'Number of request tokens has exceeded your rate limit',
  },
  overloaded: { status: 529, type: 'overloaded_error', message: 'Overloaded' },
  server_error: { status: 500, type: 'api_error', message: 'Internal server error' },
  authentication: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' },
  context_overflow: {
    status: 400,
    type: 'invalid_request_error',
    message: 'prompt is too long: 210000 tokens > 200000 maximum',
  },
};

function errorAnswer(status: number, type: string, message: string, headers: Record<string, string> = {}) {
  return {
    status,
    json: { type: 'error', error: { type, message } },
    headers: { 'request-id': 'req_local', ...headers },
  };
}

function blocksOf(turn: Turn): Block[] {
  return typeof turn.content === 'string' ? [{ type: 'text', text: turn.content }] : turn.content;
}

class AnthropicProtocol implements WireProtocol {
  readonly checks = checks;
  /** tool_use id → the thinking blocks of the response that issued it. */
  readonly #issued = new Map<string, Block[]>();
  readonly #cache = new PrefixCache();
  /** The blocks of the answer paused so far (pause_turn), which the next request must end with. */
  #paused: Block[] = [];
  /** The container of the answer paused so far, which the next request must name. */
  #pausedContainer: string | undefined;
  /** tool_use id → the container of the response that issued it (one expired is not required: it is gone). */
  readonly #containers = new Map<string, { id: string; expires_at: string }>();

  route(method: string, path: string) {
    return method === 'POST' && path === '/v1/messages' ? {} : undefined;
  }

  /** Anthropic takes the key as `x-api-key`, or (as @anthropic-ai/sdk 1.x sends it) `Authorization: Bearer`. */
  apiKeyOf(request: IncomingMessage) {
    const key = request.headers['x-api-key'];
    if (typeof key === 'string') return key;
    return request.headers.authorization?.replace(/^Bearer /, '');
  }

  validate(body: Record<string, unknown>): string[] {
    const violations: string[] = [];
    const messages = body.messages as Turn[] | undefined;
    if (typeof body.model !== 'string' || typeof body.max_tokens !== 'number' || body.max_tokens <= 0) {
      violations.push('model and a positive max_tokens are required');
    }
    if (!Array.isArray(messages) || messages.length === 0)
      return [...violations, 'messages: at least one message is required'];
    messages.forEach((turn, index) => {
      const expected = index % 2 === 0 ? 'user' : 'assistant';
      if (turn.role !== expected) violations.push(`messages.${index}.role: expected ${expected}, got ${turn.role}`);
      const blocks = blocksOf(turn);
      blocks.forEach((block, at) => {
        if (block.type === 'thinking' && block.signature !== signatureOf(String(block.thinking))) {
          violations.push(`messages.${index}.content.${at}: Invalid \`signature\` in \`thinking\` block`);
        }
      });
      if (turn.role !== 'assistant') return;
      const uses = blocks.filter((block) => block.type === 'tool_use');
      for (const use of uses) {
        const thinking = this.#issued.get(String(use.id));
        if (thinking && JSON.stringify(blocks.slice(0, thinking.length)) !== JSON.stringify(thinking)) {
          violations.push(
            `messages.${index}.content.0: the assistant turn with tool_use ${String(use.id)} must begin with its thinking blocks, as returned (expected ${thinking.map((b) => b.type).join(', ')})`,
          );
        }
      }
      const next = messages[index + 1];
      if (uses.length === 0 || next === undefined) return;
      const results = blocksOf(next);
      const leading = results.slice(0, results.findIndex((block) => block.type !== 'tool_result') >>> 0);
      for (const use of uses) {
        if (!leading.some((block) => block.type === 'tool_result' && block.tool_use_id === use.id)) {
          violations.push(
            `messages.${index + 1}: tool_use ids were found without tool_result blocks immediately after: ${String(use.id)}`,
          );
        }
      }
    });
    if (this.#paused.length > 0) {
      const last = messages[messages.length - 1];
      if (last?.role !== 'assistant' || JSON.stringify(blocksOf(last)) !== JSON.stringify(this.#paused)) {
        violations.push(
          `messages.${messages.length - 1}: a paused turn (pause_turn) is continued by sending its content back as the last assistant turn`,
        );
      }
    }
    violations.push(...this.#containerViolations(body, messages));
    const marks =
      JSON.stringify([body.system ?? null, body.tools ?? null, messages]).split('"cache_control"').length - 1;
    if (marks > 4) violations.push(`A maximum of 4 blocks with cache_control may be provided. Found ${marks}.`);
    const thinking = body.thinking as { type?: string; budget_tokens?: number } | undefined;
    if (thinking?.type === 'enabled') {
      const budget = thinking.budget_tokens ?? 0;
      if (budget < 1024 || budget >= Number(body.max_tokens)) {
        violations.push('thinking.budget_tokens: must be >= 1024 and less than max_tokens');
      }
      if (body.temperature !== undefined) violations.push('temperature may not be set when thinking is enabled');
    }
    return violations;
  }

  /** The container the request must name (a paused answer's, or that of the tool uses it answers), if it is not. */
  #containerViolations(body: Record<string, unknown>, messages: Turn[]): string[] {
    const named = typeof body.container === 'string' ? body.container : (body.container as { id?: string })?.id;
    const lastAssistant = messages.findLast((turn) => turn.role === 'assistant');
    const uses = lastAssistant === undefined ? [] : blocksOf(lastAssistant).filter((b) => b.type === 'tool_use');
    const required = [
      this.#pausedContainer,
      ...uses.map((use) => {
        const container = messages.at(-1) === lastAssistant ? undefined : this.#containers.get(String(use.id));
        return container !== undefined && Date.parse(container.expires_at) > Date.now() ? container.id : undefined;
      }),
    ].filter((id) => id !== undefined);
    return [...new Set(required)]
      .filter((id) => id !== named)
      .map((id) => `container: this request continues work in container ${id}, but names ${named ?? 'none'}`);
  }

  invalid(violations: string[]) {
    return errorAnswer(400, 'invalid_request_error', violations.join('; '));
  }

  failure(kind: WireFailureKind) {
    const { status, type, message } = failures[kind];
    return errorAnswer(status, type, message, status === 429 || status >= 500 ? { 'retry-after-ms': '5' } : {});
  }

  notFound(path: string) {
    return errorAnswer(404, 'not_found_error', `Not found: ${path}`);
  }

  /** Cache breakpoints in Anthropic's prefix order: tools, then system, then messages. */
  #cacheUse(body: Record<string, unknown>) {
    const order: unknown[] = [
      ...((body.tools as unknown[] | undefined) ?? []),
      ...((body.system as unknown[] | undefined) ?? []),
      ...(body.messages as Turn[]).flatMap((turn) => blocksOf(turn).map((block) => ({ role: turn.role, block }))),
    ];
    const prefixes: { key: string; tokens: number }[] = [];
    order.forEach((item, index) => {
      if (!JSON.stringify(item).includes('"cache_control"')) return;
      const prefix = JSON.stringify(order.slice(0, index + 1)).replaceAll(/,?"cache_control":\{[^}]*\}/g, '');
      prefixes.push(cachePrefix(prefix));
    });
    return this.#cache.use(prefixes);
  }

  answer(
    turn: WireTurn,
    context: { body: Record<string, unknown>; requestNumber: number; stream: boolean },
  ): WireAnswer {
    const { body, requestNumber } = context;
    const blocks: Block[] = [];
    if (turn.thinking !== undefined) {
      blocks.push({ type: 'thinking', thinking: turn.thinking, signature: signatureOf(turn.thinking) });
    }
    if (turn.redactedThinking !== undefined) blocks.push({ type: 'redacted_thinking', data: turn.redactedThinking });
    const thinking = [...blocks];
    blocks.push(...(turn.anthropicBlocks ?? []));
    if (turn.text !== undefined) blocks.push({ type: 'text', text: turn.text });
    (turn.toolCalls ?? []).forEach((call, index) => {
      const id = call.id ?? `toolu_${requestNumber}_${index}`;
      if (thinking.length > 0) this.#issued.set(id, thinking);
      if (turn.container !== undefined) this.#containers.set(id, turn.container);
      blocks.push({ type: 'tool_use', id, name: call.name, input: call.arguments });
    });
    const cache = this.#cacheUse(body);
    const total = turn.usage?.input ?? roughTokens([body.system, body.tools, body.messages]);
    const usage = {
      input_tokens: Math.max(0, total - cache.read - cache.written),
      cache_creation_input_tokens: cache.written,
      cache_read_input_tokens: cache.read,
      output_tokens: turn.usage?.output ?? roughTokens(blocks),
    };
    const stopReason =
      turn.stopReason ?? (turn.truncated ? 'max_tokens' : (turn.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn');
    this.#paused = stopReason === 'pause_turn' ? [...this.#paused, ...blocks] : [];
    this.#pausedContainer = stopReason === 'pause_turn' ? (turn.container?.id ?? this.#pausedContainer) : undefined;
    const container = turn.container === undefined ? null : { ...turn.container, skills: null };
    const message = {
      id: `msg_${requestNumber}`,
      type: 'message',
      role: 'assistant',
      model: String(body.model),
      content: blocks,
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
      container,
    };
    if (!context.stream) return { status: 200, json: message };
    const events: { event: string; data: unknown }[] = [];
    const emit = (data: { type: string } & Record<string, unknown>) => events.push({ event: data.type, data });
    emit({
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, container: null, usage: { ...usage, output_tokens: 1 } },
    });
    blocks.forEach((block, index) => {
      if (block.type === 'thinking') {
        emit({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
        for (const piece of splitText(String(block.thinking), 2)) {
          emit({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } });
        }
        emit({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } });
      } else if (block.type === 'text') {
        emit({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
        for (const piece of splitText(String(block.text), 3)) {
          emit({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
        }
      } else if (block.type === 'tool_use') {
        emit({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
        for (const piece of splitText(JSON.stringify(block.input), 3)) {
          emit({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
        }
      } else {
        emit({ type: 'content_block_start', index, content_block: block });
      }
      emit({ type: 'content_block_stop', index });
    });
    emit({
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null, container },
      usage: { output_tokens: usage.output_tokens },
    });
    emit({ type: 'message_stop' });
    return { status: 200, events };
  }
}

/**
 * A local server speaking the Anthropic Messages API (`POST /v1/messages`, JSON and SSE streaming)
 * on 127.0.0.1, answering from a script. It signs the thinking it returns and rejects a later request
 * whose history drops or alters a thinking block, as Anthropic does; it simulates prompt caching from
 * the request's `cache_control` marks. See `checks` for everything it verifies. Give its `baseURL` to
 * `createAnthropicLLM` or `new Anthropic({ baseURL })`.
 */
export function startAnthropicServer(
  script: WireReply[] | WireReplyFunction = [],
  options: { apiKey?: string } = {},
): Promise<WireServer> {
  return startWireServer(new AnthropicProtocol(), script, options);
}

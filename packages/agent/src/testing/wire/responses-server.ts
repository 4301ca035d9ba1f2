import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { splitText } from '../internal/split-text.js';
import { cachePrefixes, PrefixCache, startWireServer, type WireAnswer, type WireProtocol } from './wire-server.js';
import {
  roughTokens,
  type WireFailureKind,
  type WireReply,
  type WireReplyFunction,
  type WireServer,
  type WireTurn,
} from './wire-types.js';

type Item = Record<string, unknown> & { type?: string };

const checks = [
  'the body has model and an input list',
  "every function_call this server issued after a reasoning item is preceded in input by that reasoning item (same id), as OpenAI requires ('provided without its required reasoning item')",
  'with store false, every reasoning item in input carries the encrypted_content this server issued for it, unchanged',
  'every function_call_output answers an earlier function_call (same call_id), and every function_call is answered',
] as const;

const failures: Record<WireFailureKind, { status: number; type: string; code: string | null; message: string }> = {
  rate_limit: {
    status: 429,
    type: 'requests',
    code: 'rate_limit_exceeded',
    message: 'Rate limit reached for requests. Please try again in 5ms.',
  },
  overloaded: { status: 503, type: 'server_error', code: null, message: 'The server is overloaded or not ready yet.' },
  server_error: {
    status: 500,
    type: 'server_error',
    code: null,
    message: 'The server had an error while processing your request.',
  },
  authentication: {
    status: 401,
    type: 'invalid_request_error',
    code: 'invalid_api_key',
    message: 'Incorrect API key provided.',
  },
  context_overflow: {
    status: 400,
    type: 'invalid_request_error',
    code: 'context_length_exceeded',
    message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
  },
};

function errorAnswer(status: number, type: string, code: string | null, message: string, headers = {}) {
  return { status, json: { error: { message, type, param: null, code } }, headers };
}

class ResponsesProtocol implements WireProtocol {
  readonly checks = checks;
  /** call_id → the reasoning item (id and encrypted content) issued before it. */
  readonly #issuedBefore = new Map<string, { id: string; encrypted: string | undefined }>();
  /** reasoning item id → encrypted content issued. */
  readonly #encrypted = new Map<string, string>();
  readonly #cache = new PrefixCache();

  route(method: string, path: string) {
    return method === 'POST' && path === '/v1/responses' ? {} : undefined;
  }

  apiKeyOf(request: IncomingMessage) {
    return request.headers.authorization?.replace(/^Bearer /, '');
  }

  validate(body: Record<string, unknown>): string[] {
    const input = body.input as Item[] | undefined;
    if (typeof body.model !== 'string' || !Array.isArray(input)) return ['model and an input list are required'];
    const violations: string[] = [];
    const stateless = body.store !== true;
    const calls = new Set<string>();
    const answered = new Set<string>();
    input.forEach((item, index) => {
      if (item.type === 'reasoning' && stateless) {
        const issued = this.#encrypted.get(String(item.id));
        if (item.encrypted_content === undefined || item.encrypted_content === null) {
          violations.push(
            `Item with id '${String(item.id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
          );
        } else if (issued !== undefined && item.encrypted_content !== issued) {
          violations.push(`input[${index}]: the encrypted content for item ${String(item.id)} could not be verified.`);
        }
      } else if (item.type === 'function_call') {
        const callId = String(item.call_id);
        calls.add(callId);
        const required = this.#issuedBefore.get(callId);
        const before = input.slice(0, index);
        if (required && !before.some((other) => other.type === 'reasoning' && other.id === required.id)) {
          violations.push(
            `Item '${String(item.id)}' of type 'function_call' was provided without its required 'reasoning' item: '${required.id}'.`,
          );
        }
      } else if (item.type === 'function_call_output') {
        const callId = String(item.call_id);
        if (!calls.has(callId)) violations.push(`No tool call found for function call output with call_id ${callId}.`);
        answered.add(callId);
      }
    });
    for (const callId of calls) {
      if (!answered.has(callId)) violations.push(`No tool output found for function call ${callId}.`);
    }
    return violations;
  }

  invalid(violations: string[]) {
    return errorAnswer(400, 'invalid_request_error', null, violations.join('; '));
  }

  failure(kind: WireFailureKind) {
    const { status, type, code, message } = failures[kind];
    return errorAnswer(status, type, code, message, status === 429 || status >= 500 ? { 'retry-after-ms': '5' } : {});
  }

  notFound(path: string) {
    return errorAnswer(404, 'invalid_request_error', 'not_found', `Invalid URL (POST ${path})`);
  }

  answer(
    turn: WireTurn,
    context: { body: Record<string, unknown>; requestNumber: number; stream: boolean },
  ): WireAnswer {
    const { body, requestNumber } = context;
    const include = (body.include as string[] | undefined) ?? [];
    const output: Item[] = [];
    let reasoning: { id: string; encrypted: string | undefined } | undefined;
    if (turn.thinking !== undefined) {
      const id = `rs_${requestNumber}`;
      const encrypted = include.includes('reasoning.encrypted_content')
        ? `enc_${createHash('sha256').update(`${id}:${turn.thinking}`).digest('base64')}`
        : undefined;
      if (encrypted) this.#encrypted.set(id, encrypted);
      reasoning = { id, encrypted };
      output.push({
        type: 'reasoning',
        id,
        summary: [{ type: 'summary_text', text: turn.thinking }],
        ...(encrypted && { encrypted_content: encrypted }),
      });
    }
    if (turn.text !== undefined) {
      output.push({
        type: 'message',
        id: `msg_${requestNumber}`,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: turn.text, annotations: [] }],
      });
    }
    (turn.toolCalls ?? []).forEach((call, index) => {
      const callId = call.id ?? `call_${requestNumber}_${index}`;
      if (reasoning) this.#issuedBefore.set(callId, reasoning);
      output.push({
        type: 'function_call',
        id: `fc_${requestNumber}_${index}`,
        call_id: callId,
        name: call.name,
        arguments: JSON.stringify(call.arguments),
        status: 'completed',
      });
    });
    const input = [body.instructions ?? null, body.tools ?? null, ...(body.input as Item[])];
    const prefixes = cachePrefixes(input);
    // OpenAI caches automatically; a request reads the longest prefix an earlier one sent.
    const cached = this.#cache.use(prefixes.slice(0, -1)).read;
    const inputTokens = turn.usage?.input ?? roughTokens(input);
    const reasoningTokens = turn.usage?.reasoning ?? (turn.thinking === undefined ? 0 : roughTokens(turn.thinking));
    const outputTokens = (turn.usage?.output ?? roughTokens(output)) + reasoningTokens;
    const response = {
      id: `resp_${requestNumber}`,
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      status: turn.truncated ? 'incomplete' : 'completed',
      incomplete_details: turn.truncated ? { reason: 'max_output_tokens' } : null,
      error: null,
      model: String(body.model),
      output,
      parallel_tool_calls: true,
      store: body.store === true,
      usage: {
        input_tokens: inputTokens,
        input_tokens_details: { cached_tokens: Math.min(cached, inputTokens) },
        output_tokens: outputTokens,
        output_tokens_details: { reasoning_tokens: reasoningTokens },
        total_tokens: inputTokens + outputTokens,
      },
    };
    if (!context.stream) return { status: 200, json: response };
    const events: { event: string; data: unknown }[] = [];
    const emit = (data: { type: string } & Record<string, unknown>) =>
      events.push({ event: data.type, data: { ...data, sequence_number: events.length } });
    emit({ type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } });
    output.forEach((item, outputIndex) => {
      const itemId = String(item.id);
      if (item.type === 'reasoning') {
        emit({ type: 'response.output_item.added', output_index: outputIndex, item: { ...item, summary: [] } });
        emit({
          type: 'response.reasoning_summary_part.added',
          item_id: itemId,
          output_index: outputIndex,
          summary_index: 0,
          part: { type: 'summary_text', text: '' },
        });
        for (const delta of splitText(turn.thinking ?? '', 2)) {
          emit({
            type: 'response.reasoning_summary_text.delta',
            item_id: itemId,
            output_index: outputIndex,
            summary_index: 0,
            delta,
          });
        }
        emit({
          type: 'response.reasoning_summary_text.done',
          item_id: itemId,
          output_index: outputIndex,
          summary_index: 0,
          text: turn.thinking,
        });
      } else if (item.type === 'message') {
        emit({
          type: 'response.output_item.added',
          output_index: outputIndex,
          item: { ...item, content: [], status: 'in_progress' },
        });
        emit({
          type: 'response.content_part.added',
          item_id: itemId,
          output_index: outputIndex,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] },
        });
        for (const delta of splitText(turn.text ?? '', 3)) {
          emit({
            type: 'response.output_text.delta',
            item_id: itemId,
            output_index: outputIndex,
            content_index: 0,
            delta,
            logprobs: [],
          });
        }
        emit({
          type: 'response.output_text.done',
          item_id: itemId,
          output_index: outputIndex,
          content_index: 0,
          text: turn.text,
          logprobs: [],
        });
      } else {
        emit({
          type: 'response.output_item.added',
          output_index: outputIndex,
          item: { ...item, arguments: '', status: 'in_progress' },
        });
        for (const delta of splitText(String(item.arguments), 3)) {
          emit({ type: 'response.function_call_arguments.delta', item_id: itemId, output_index: outputIndex, delta });
        }
        emit({
          type: 'response.function_call_arguments.done',
          item_id: itemId,
          output_index: outputIndex,
          arguments: item.arguments,
        });
      }
      emit({ type: 'response.output_item.done', output_index: outputIndex, item });
    });
    emit({ type: turn.truncated ? 'response.incomplete' : 'response.completed', response });
    return { status: 200, events };
  }
}

/**
 * A local server speaking the OpenAI Responses API (`POST /v1/responses`, JSON and SSE streaming) on
 * 127.0.0.1, answering from a script. It issues reasoning items (with `encrypted_content` when the
 * request includes `reasoning.encrypted_content`) and rejects a later request that drops or alters
 * them, with OpenAI's own error wording; it simulates automatic prefix caching. See `checks`.
 * Give its `baseURL` (ending in `/v1`) to `createOpenAIResponsesLLM` or `new OpenAI({ baseURL })`.
 */
export function startResponsesServer(
  script: WireReply[] | WireReplyFunction = [],
  options: { apiKey?: string } = {},
): Promise<WireServer> {
  return startWireServer(new ResponsesProtocol(), script, { ...options, basePath: '/v1' });
}

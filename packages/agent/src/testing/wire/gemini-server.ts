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

type Part = Record<string, unknown> & {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { id?: string; name?: string; args?: unknown };
  functionResponse?: { id?: string; name?: string; response?: unknown };
};
type Content = { role?: string; parts?: Part[] };

const checks = [
  'the body has a non-empty contents list of user and model turns',
  'every functionCall part this server issued with a thoughtSignature comes back with that signature, unchanged (Gemini 3 rejects a function call without its thought_signature)',
  'a model turn with function calls is followed by a user turn with as many functionResponse parts, naming the same functions',
] as const;

const failures: Record<WireFailureKind, { code: number; status: string; message: string; reason?: string }> = {
  rate_limit: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Resource has been exhausted (e.g. check quota).' },
  overloaded: { code: 503, status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
  server_error: { code: 500, status: 'INTERNAL', message: 'An internal error has occurred. Please retry.' },
  authentication: {
    code: 400,
    status: 'INVALID_ARGUMENT',
    message: 'API key not valid. Please pass a valid API key.',
    reason: 'API_KEY_INVALID',
  },
  context_overflow: {
    code: 400,
    status: 'INVALID_ARGUMENT',
    message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
  },
};

function errorAnswer(code: number, status: string, message: string, reason?: string) {
  const details = reason
    ? [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' }]
    : undefined;
  return { status: code, json: { error: { code, message, status, ...(details && { details }) } } };
}

function callKey(call: { name?: string; args?: unknown }): string {
  return `${call.name ?? ''}:${JSON.stringify(call.args ?? {})}`;
}

class GeminiProtocol implements WireProtocol {
  readonly checks = checks;
  /** name + args of a function call → the thought signature issued with it. */
  readonly #signatures = new Map<string, string>();
  readonly #cache = new PrefixCache();

  route(method: string, path: string, query: URLSearchParams) {
    const match = /^\/v1beta\/models\/[^/:]+:(generateContent|streamGenerateContent)$/.exec(path);
    if (method !== 'POST' || !match) return undefined;
    return { stream: match[1] === 'streamGenerateContent' && query.get('alt') === 'sse' };
  }

  apiKeyOf(request: IncomingMessage) {
    const key = request.headers['x-goog-api-key'];
    return typeof key === 'string' ? key : undefined;
  }

  validate(body: Record<string, unknown>): string[] {
    const contents = body.contents as Content[] | undefined;
    if (!Array.isArray(contents) || contents.length === 0) return ['contents is not specified'];
    const violations: string[] = [];
    contents.forEach((content, index) => {
      if (content.role !== 'user' && content.role !== 'model') {
        violations.push(`contents[${index}].role: please use a valid role: user, model.`);
      }
      const calls = (content.parts ?? []).filter((part) => part.functionCall);
      calls.forEach((part, position) => {
        const call = part.functionCall ?? {};
        const issued = this.#signatures.get(callKey(call));
        if (issued !== undefined && part.thoughtSignature !== issued) {
          violations.push(
            `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly. Additional data, function call \`default_api:${call.name}\`, position ${index + 1}.${position}.`,
          );
        }
      });
      if (content.role !== 'model' || calls.length === 0) return;
      const next = contents[index + 1];
      if (next === undefined) return;
      const responses = (next.parts ?? []).filter((part) => part.functionResponse);
      const names = (parts: Part[], key: 'functionCall' | 'functionResponse') =>
        parts
          .map((part) => part[key]?.name ?? '')
          .sort()
          .join(',');
      if (responses.length !== calls.length || names(responses, 'functionResponse') !== names(calls, 'functionCall')) {
        violations.push(
          'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
        );
      }
    });
    return violations;
  }

  invalid(violations: string[]) {
    return errorAnswer(400, 'INVALID_ARGUMENT', violations.join('; '));
  }

  failure(kind: WireFailureKind) {
    const { code, status, message, reason } = failures[kind];
    return errorAnswer(code, status, message, reason);
  }

  notFound(path: string) {
    return errorAnswer(404, 'NOT_FOUND', `Requested entity was not found: ${path}`);
  }

  answer(
    turn: WireTurn,
    context: { body: Record<string, unknown>; requestNumber: number; stream: boolean },
  ): WireAnswer {
    const { body, requestNumber } = context;
    const config = (body.generationConfig ?? {}) as { thinkingConfig?: { includeThoughts?: boolean } };
    const parts: Part[] = [];
    if (turn.thinking !== undefined && config.thinkingConfig?.includeThoughts) {
      parts.push({ text: turn.thinking, thought: true });
    }
    if (turn.text !== undefined) parts.push({ text: turn.text });
    (turn.toolCalls ?? []).forEach((call, index) => {
      const functionCall = { name: call.name, args: call.arguments };
      const part: Part = { functionCall };
      // Gemini signs the first function call of a turn when the model thought.
      if (turn.thinking !== undefined && index === 0) {
        const signature = createHash('sha256')
          .update(`${requestNumber}:${callKey(functionCall)}`)
          .digest('base64');
        this.#signatures.set(callKey(functionCall), signature);
        part.thoughtSignature = signature;
      }
      parts.push(part);
    });
    const contents = [body.systemInstruction ?? null, body.tools ?? null, ...(body.contents as Content[])];
    const prefixes = cachePrefixes(contents);
    // Implicit caching: the longest prefix an earlier request sent is served from the cache.
    const cached = this.#cache.use(prefixes.slice(0, -1)).read;
    const prompt = turn.usage?.input ?? roughTokens(contents);
    const thoughts = turn.usage?.reasoning ?? (turn.thinking === undefined ? 0 : roughTokens(turn.thinking));
    const candidates = turn.usage?.output ?? roughTokens(parts.filter((part) => !part.thought));
    const usageMetadata = {
      promptTokenCount: prompt,
      candidatesTokenCount: candidates,
      totalTokenCount: prompt + candidates + thoughts,
      ...(thoughts > 0 && { thoughtsTokenCount: thoughts }),
      ...(cached > 0 && { cachedContentTokenCount: Math.min(cached, prompt) }),
    };
    const finishReason = turn.stopReason ?? (turn.truncated ? 'MAX_TOKENS' : 'STOP');
    const base = { modelVersion: 'gemini-local', responseId: `gemini-resp-${requestNumber}` };
    const reply = (chunkParts: Part[], last: boolean) => ({
      candidates: [{ content: { role: 'model', parts: chunkParts }, index: 0, ...(last && { finishReason }) }],
      ...(last && { usageMetadata }),
      ...base,
    });
    if (!context.stream) return { status: 200, json: reply(parts, true) };
    const chunks: Part[][] = [];
    for (const part of parts) {
      if (part.functionCall) chunks.push([part]);
      else for (const piece of splitText(part.text ?? '', 2)) chunks.push([{ ...part, text: piece }]);
    }
    if (chunks.length === 0) chunks.push([]);
    return { status: 200, events: chunks.map((chunk, index) => ({ data: reply(chunk, index === chunks.length - 1) })) };
  }
}

/**
 * A local server speaking the Gemini API (`POST /v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`) on 127.0.0.1, answering from a script. It signs the function
 * calls of a thinking turn and rejects a later request that sends one back without its
 * `thoughtSignature`, with Gemini's own wording; it simulates implicit caching. See `checks`.
 * Give its `baseURL` to `createGeminiLLM` or `new GoogleGenAI({ httpOptions: { baseUrl } })`.
 */
export function startGeminiServer(
  script: WireReply[] | WireReplyFunction = [],
  options: { apiKey?: string } = {},
): Promise<WireServer> {
  return startWireServer(new GeminiProtocol(), script, options);
}

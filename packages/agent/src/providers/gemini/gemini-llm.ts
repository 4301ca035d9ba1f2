import type { GoogleGenAI } from '@google/genai';
import { loadOptionalDependency } from '../../dependencies/internal/load-optional-dependency.js';
import { LLMAuthenticationError } from '../../llm/errors/llm-authentication-error.js';
import { LLMMalformedToolCallError } from '../../llm/errors/llm-malformed-tool-call-error.js';
import { type LLM, type LLMRequest, type LLMResponse, normalizeMessages } from '../../llm/llm.js';
import { maskUrlCredentials } from '../../llm/mask-url-credentials.js';
import { fetchWithQuery, headersWithBasicAuth, splitBaseUrl } from '../internal/base-url-credentials.js';
import { finishResponse, lazy, wireModel } from '../internal/finish-response.js';
import { createProviderLLM } from '../internal/provider-llm.js';
import type { GeminiLLMConfig } from './gemini-config.js';
import { failedToolCall, failedToolCallReasons } from './gemini-failed-call.js';
import { toGeminiContents } from './gemini-render.js';
import {
  type GeminiReply,
  GeminiStreamAssembler,
  geminiFinishReason,
  geminiMessage,
  geminiUsage,
} from './gemini-reply.js';
import { mapGeminiError } from './map-gemini-error.js';

const geminiBaseURL = 'https://generativelanguage.googleapis.com';
/**
 * The API version is pinned, not left to the SDK: `@google/genai` 2.x defaults to v1beta, 3.x to v1
 * (or to `GOOGLE_GENAI_API_VERSION`), where the `-latest` model aliases do not exist. x's requests
 * (and `startGeminiServer`) follow v1beta, so the same URLs go out whichever major is installed.
 */
const geminiApiVersion = 'v1beta';

function envBaseURL(): string | undefined {
  return process.env.GEMINI_BASE_URL ?? process.env.GOOGLE_GEMINI_BASE_URL;
}

/**
 * An LLM that talks to the Gemini API (`generateContent` / `streamGenerateContent`) through
 * `@google/genai` (loaded on first use). Key: `apiKey`, else `GEMINI_API_KEY`, else `GOOGLE_API_KEY`;
 * endpoint: `baseURL`, else `GEMINI_BASE_URL` / `GOOGLE_GEMINI_BASE_URL`, else Google. The SDK retries
 * 408/429/5xx with exponential backoff.
 */
export function createGeminiLLM(config: GeminiLLMConfig): LLM {
  const baseURL = config.baseURL ?? envBaseURL() ?? geminiBaseURL;
  const apiKey =
    config.apiKey ??
    process.env.GEMINI_API_KEY ??
    process.env.GOOGLE_API_KEY ??
    (config.baseURL ? 'not-needed' : undefined);
  if (!apiKey) {
    throw new LLMAuthenticationError(
      `No API key for model '${config.model}': pass apiKey or set GEMINI_API_KEY (or GOOGLE_API_KEY)`,
    );
  }
  const client = lazy(async (): Promise<GoogleGenAI> => {
    const { GoogleGenAI: Client } = await loadOptionalDependency(
      'The gemini provider',
      '@google/genai',
      () => import('@google/genai'),
    );
    // As for the other providers: userinfo as a Basic header, the query added to every request (the SDK appends
    // its paths to the base URL, after any query it held).
    const parts = splitBaseUrl(baseURL);
    const headers = headersWithBasicAuth(parts, config.headers);
    return new Client({
      apiKey,
      httpOptions: {
        baseUrl: parts.baseURL,
        apiVersion: geminiApiVersion,
        timeout: config.timeoutMs ?? 120_000,
        ...(headers && { headers }),
        ...(parts.query && { fetch: fetchWithQuery(parts.query) }),
        retryOptions: {
          attempts: (config.maxRetries ?? 4) + 1,
          initialDelay: (config.retryDelayMs ?? 1000) / 1000,
        },
      },
    });
  });
  const model = wireModel(config.model, ['gemini', 'google']);

  function params(request: LLMRequest) {
    const rendered = toGeminiContents(normalizeMessages(request.messages), { vision: config.vision ?? true });
    const declarations = (request.tools ?? []).map((tool) => ({
      name: tool.function.name,
      description: tool.function.description,
      parametersJsonSchema: tool.function.parameters,
    }));
    const thinking = config.thinking;
    return {
      model,
      contents: rendered.contents,
      config: {
        ...(rendered.systemInstruction && { systemInstruction: rendered.systemInstruction }),
        ...(declarations.length > 0 && { tools: [{ functionDeclarations: declarations }] }),
        ...(thinking && {
          thinkingConfig: {
            includeThoughts: thinking.includeThoughts ?? true,
            ...(thinking.budgetTokens !== undefined && { thinkingBudget: thinking.budgetTokens }),
            ...(thinking.level !== undefined && { thinkingLevel: thinking.level.toUpperCase() }),
          },
        }),
        ...(config.temperature !== undefined && { temperature: config.temperature }),
        ...(config.maxOutputTokens !== undefined && { maxOutputTokens: config.maxOutputTokens }),
        ...(request.signal && { abortSignal: request.signal }),
      },
    };
  }

  function finish(reply: Required<Pick<GeminiReply, 'responseId'>> & GeminiReply, startedAt: number): LLMResponse {
    const candidate = reply.candidates?.[0];
    const message = geminiMessage(candidate?.content?.parts ?? [], reply.responseId);
    const reason = candidate?.finishReason;
    const response = finishResponse(config, {
      id: reply.responseId,
      message,
      finishReason: geminiFinishReason(reason, (message.tool_calls ?? []).length > 0),
      providerFinishReason: reason ?? null,
      usage: geminiUsage(reply.usageMetadata, {
        model: config.model,
        responseId: reply.responseId,
        contextWindow: config.contextWindow ?? 0,
      }),
      startedAt,
    });
    if (reason === undefined || !failedToolCallReasons.has(reason) || message.tool_calls !== undefined) return response;
    throw new LLMMalformedToolCallError(
      `Model '${config.model}' attempted a tool call Gemini could not deliver (finishReason ${reason})`,
      {
        ...response,
        message: { ...message, tool_calls: [failedToolCall(reason, reply.responseId)] },
        finishReason: 'tool_calls',
      },
      { providerCode: reason },
    );
  }

  async function completeOnce(request: LLMRequest, startedAt: number): Promise<LLMResponse> {
    // biome-ignore lint/suspicious/noExplicitAny: our structural params match the SDK's wide types
    const reply = (await (await client()).models.generateContent(params(request) as any)) as GeminiReply;
    return finish({ ...reply, responseId: reply.responseId ?? `gemini-${crypto.randomUUID()}` }, startedAt);
  }

  async function completeStreaming(request: LLMRequest, startedAt: number): Promise<LLMResponse> {
    // biome-ignore lint/suspicious/noExplicitAny: our structural params match the SDK's wide types
    const stream = await (await client()).models.generateContentStream(params(request) as any);
    const assembler = new GeminiStreamAssembler();
    for await (const chunk of stream) {
      const delta = assembler.add(chunk as GeminiReply);
      if (delta) request.onDelta?.(delta);
    }
    const responseId = assembler.responseId ?? `gemini-${crypto.randomUUID()}`;
    return finish(
      {
        responseId,
        candidates: [
          {
            content: { parts: assembler.parts },
            ...(assembler.finishReason && { finishReason: assembler.finishReason }),
          },
        ],
        ...(assembler.usage && { usageMetadata: assembler.usage }),
      },
      startedAt,
    );
  }

  return createProviderLLM(config, {
    provider: 'gemini',
    completeOnce,
    completeStreaming,
    mapError: (error, request) =>
      mapGeminiError(error, { model: config.model, baseURL: maskUrlCredentials(baseURL), signal: request.signal }),
    connection: { apiKey, baseURL },
  });
}

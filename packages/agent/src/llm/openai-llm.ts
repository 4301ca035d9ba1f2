import { randomUUID } from 'node:crypto';
import { toChatCompletionsMessages } from '@x/events';
import type OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { loadOptionalDependency } from '../dependencies/internal/load-optional-dependency.js';
import { finishResponse, lazy, wireModel } from '../providers/internal/finish-response.js';
import { createProviderLLM, sdkClientOptions } from '../providers/internal/provider-llm.js';
import { LLMAuthenticationError } from './errors/llm-authentication-error.js';
import { type AssistantParts, assistantMessage } from './internal/assistant-message.js';
import { mapOpenAIError } from './internal/map-openai-error.js';
import { reasoningOf, StreamAssembler } from './internal/stream-assembler.js';
import { tokenUsageFromCompletion } from './internal/usage.js';
import { type LLM, type LLMFinishReason, type LLMRequest, type LLMResponse, normalizeMessages } from './llm.js';
import type { BaseLLMConfig } from './llm-config.js';
import { maskUrlCredentials } from './mask-url-credentials.js';

export type { Pricing } from './pricing.js';

/**
 * Configuration of `createOpenAILLM`: any OpenAI-compatible Chat Completions endpoint. `baseURL` is the
 * endpoint root including the version segment, e.g. `http://127.0.0.1:8000/v1` (default OpenAI, or
 * `OPENAI_BASE_URL`); the key defaults to `OPENAI_API_KEY` and is optional with a `baseURL`.
 * `maxOutputTokens` is sent as `max_completion_tokens`.
 */
export interface LLMConfig extends BaseLLMConfig {}

const openAIBaseURL = 'https://api.openai.com/v1';
// openai's client insists on a key; local OpenAI-compatible servers usually ignore it.
const placeholderKey = 'not-needed';

function resolveApiKey(config: LLMConfig): string {
  const key = config.apiKey ?? process.env.OPENAI_API_KEY;
  if (key) return key;
  if (config.baseURL) return placeholderKey;
  throw new LLMAuthenticationError(
    `No API key for model '${config.model}': pass apiKey, set OPENAI_API_KEY, or give a baseURL of a server that needs none`,
  );
}

/** An LLM that talks to an OpenAI-compatible `/chat/completions` endpoint through the `openai` client. */
export function createOpenAILLM(config: LLMConfig): LLM {
  const baseURL = config.baseURL ?? process.env.OPENAI_BASE_URL ?? openAIBaseURL;
  const apiKey = resolveApiKey(config);
  // The openai client (an optional peer dependency) is loaded on the first request: importing @x/agent stays
  // cheap, and an install that uses another provider needs no openai at all.
  const client = lazy(async (): Promise<OpenAI> => {
    const { default: OpenAIClient } = await loadOptionalDependency(
      'The OpenAI-compatible client',
      'openai',
      () => import('openai'),
    );
    return new OpenAIClient(sdkClientOptions(config, { apiKey, baseURL }));
  });
  const context = { model: config.model, baseURL: maskUrlCredentials(baseURL) };
  const contextWindow = config.contextWindow ?? 0;
  const model = wireModel(config.model, ['openai']);

  function baseParams(request: LLMRequest) {
    // Our rendering adds provider extensions (cache_control, thinking_blocks) that OpenAI-compatible
    // gateways accept but the openai package's param types do not list.
    const messages = toChatCompletionsMessages(normalizeMessages(request.messages), {
      functionCallingEnabled: true,
      visionEnabled: config.vision ?? true,
    }) as ChatCompletionMessageParam[];
    return {
      model,
      messages,
      ...(request.tools && request.tools.length > 0 && { tools: request.tools as ChatCompletionTool[] }),
      ...(config.temperature !== undefined && { temperature: config.temperature }),
      ...(config.maxOutputTokens !== undefined && { max_completion_tokens: config.maxOutputTokens }),
    };
  }

  function finish(options: {
    id: string | undefined;
    parts: AssistantParts;
    finishReason: string | null;
    usage: ChatCompletion['usage'] | null;
    startedAt: number;
  }): LLMResponse {
    // Some servers omit ids; the step loop needs one per response and per tool call.
    const id = options.id || `chatcmpl-${randomUUID()}`;
    const toolCalls = options.parts.toolCalls.map((call, index) => ({
      ...call,
      id: call.id || `call_${id}_${index}`,
    }));
    const usage = tokenUsageFromCompletion(options.usage, { model: config.model, responseId: id, contextWindow });
    return finishResponse(config, {
      id,
      message: assistantMessage({ ...options.parts, toolCalls }),
      // Chat Completions' vocabulary is the one every provider is mapped to.
      finishReason: options.finishReason as LLMFinishReason | null,
      providerFinishReason: options.finishReason,
      usage,
      startedAt: options.startedAt,
    });
  }

  async function completeOnce(request: LLMRequest, startedAt: number): Promise<LLMResponse> {
    const params: ChatCompletionCreateParamsNonStreaming = { ...baseParams(request), stream: false };
    const completion = await (await client()).chat.completions.create(params, { signal: request.signal });
    const choice = completion.choices[0];
    const toolCalls = (choice?.message.tool_calls ?? []).flatMap((call) =>
      call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : [],
    );
    return finish({
      id: completion.id,
      parts: { content: choice?.message.content, toolCalls, reasoningContent: reasoningOf(choice?.message) },
      finishReason: choice?.finish_reason ?? null,
      usage: completion.usage,
      startedAt,
    });
  }

  async function completeStreaming(request: LLMRequest, startedAt: number): Promise<LLMResponse> {
    const params: ChatCompletionCreateParamsStreaming = {
      ...baseParams(request),
      stream: true,
      stream_options: { include_usage: true },
    };
    const stream = await (await client()).chat.completions.create(params, { signal: request.signal });
    const assembler = new StreamAssembler();
    for await (const chunk of stream) {
      const delta = assembler.add(chunk);
      if (delta) request.onDelta?.(delta);
    }
    return finish({
      id: assembler.id,
      parts: assembler.parts(),
      finishReason: assembler.finishReason,
      usage: assembler.usage,
      startedAt,
    });
  }

  return createProviderLLM(config, {
    provider: 'openai',
    completeOnce,
    completeStreaming,
    mapError: (error) => mapOpenAIError(error, context),
    connection: { apiKey, baseURL },
  });
}

import type Anthropic from '@anthropic-ai/sdk';
import { loadOptionalDependency } from '../../dependencies/internal/load-optional-dependency.js';
import { LLMAuthenticationError } from '../../llm/errors/llm-authentication-error.js';
import { stainlessFailure, toLLMError } from '../../llm/internal/map-llm-error.js';
import type { LLM, LLMRequest, LLMResponse } from '../../llm/llm.js';
import { maskUrlCredentials } from '../../llm/mask-url-credentials.js';
import { finishResponse, lazy, wireModel } from '../internal/finish-response.js';
import { createProviderLLM, sdkClientOptions } from '../internal/provider-llm.js';
import type { AnthropicLLMConfig } from './anthropic-config.js';
import { AnthropicContainers } from './anthropic-containers.js';
import { completeThroughPauses } from './anthropic-pause.js';
import { anthropicParams } from './anthropic-request.js';
import { type AnthropicReply, anthropicFinishReason, anthropicMessage, anthropicUsage } from './anthropic-response.js';

const anthropicBaseURL = 'https://api.anthropic.com';
const placeholderKey = 'not-needed';

/**
 * An LLM that talks to the Anthropic Messages API through `@anthropic-ai/sdk` (loaded on first use).
 * Key: `apiKey`, else `ANTHROPIC_API_KEY`; endpoint: `baseURL`, else `ANTHROPIC_BASE_URL`, else Anthropic.
 * The SDK retries 408/409/429/5xx/529 and connection errors with backoff (honouring `retry-after`).
 */
export function createAnthropicLLM(config: AnthropicLLMConfig): LLM {
  const baseURL = config.baseURL ?? process.env.ANTHROPIC_BASE_URL ?? anthropicBaseURL;
  const apiKey = config.apiKey ?? process.env.ANTHROPIC_API_KEY ?? (config.baseURL ? placeholderKey : undefined);
  if (!apiKey) {
    throw new LLMAuthenticationError(`No API key for model '${config.model}': pass apiKey or set ANTHROPIC_API_KEY`);
  }
  const client = lazy(async (): Promise<Anthropic> => {
    const { default: AnthropicClient } = await loadOptionalDependency(
      'The anthropic provider',
      '@anthropic-ai/sdk',
      () => import('@anthropic-ai/sdk'),
    );
    return new AnthropicClient(sdkClientOptions(config, { apiKey, baseURL, apiKeyHeader: 'x-api-key' }));
  });
  const model = wireModel(config.model, ['anthropic']);
  const context = { model: config.model, baseURL: maskUrlCredentials(baseURL) };
  const longOutput = anthropicParams(config, model, { messages: [] }).max_tokens > 16_000;
  const containers = new AnthropicContainers();

  /** The body for `request`, naming the code-execution container its latest assistant turn ran in, if any. */
  function paramsOf(request: LLMRequest) {
    const params = anthropicParams(config, model, request);
    const container = containers.containerOf(params.messages);
    return container === undefined ? params : { ...params, container };
  }

  function finish(reply: AnthropicReply, startedAt: number): LLMResponse {
    containers.remember(reply);
    return finishResponse(config, {
      id: reply.id,
      message: anthropicMessage(reply),
      finishReason: anthropicFinishReason(reply.stop_reason),
      providerFinishReason: reply.stop_reason,
      usage: anthropicUsage(reply.usage, {
        model: config.model,
        responseId: reply.id,
        contextWindow: config.contextWindow ?? 0,
      }),
      startedAt,
    });
  }

  async function completeOnce(request: LLMRequest, startedAt: number): Promise<LLMResponse> {
    const params = paramsOf(request) as Anthropic.MessageCreateParamsNonStreaming;
    const sdk = await client();
    const reply = await completeThroughPauses(
      params,
      async (body) =>
        (await sdk.messages.create(
          { ...body, stream: false },
          { ...(request.signal && { signal: request.signal }) },
        )) as AnthropicReply,
      context,
    );
    return finish(reply, startedAt);
  }

  async function completeStreaming(request: LLMRequest, startedAt: number): Promise<LLMResponse> {
    const params = paramsOf(request) as Anthropic.MessageStreamParams;
    const sdk = await client();
    const reply = await completeThroughPauses(
      params,
      async (body) => {
        const stream = sdk.messages.stream(body, { ...(request.signal && { signal: request.signal }) });
        stream.on('text', (delta) => request.onDelta?.({ content: delta }));
        stream.on('thinking', (delta) => request.onDelta?.({ reasoning_content: delta }));
        return (await stream.finalMessage()) as AnthropicReply;
      },
      context,
    );
    return finish(reply, startedAt);
  }

  return createProviderLLM(config, {
    provider: 'anthropic',
    completeOnce,
    completeStreaming,
    // The SDK refuses a non-streaming call that may outlast its 10-minute limit (large max_tokens).
    alwaysStream: longOutput,
    mapError: (error) => toLLMError(stainlessFailure(error), context),
    connection: { apiKey, baseURL },
  });
}

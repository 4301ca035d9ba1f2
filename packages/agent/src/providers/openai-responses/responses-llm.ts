import { toResponsesInput } from '@x/events';
import type OpenAI from 'openai';
import type { ResponseCreateParamsNonStreaming } from 'openai/resources/responses/responses';
import { loadOptionalDependency } from '../../dependencies/internal/load-optional-dependency.js';
import { LLMAuthenticationError } from '../../llm/errors/llm-authentication-error.js';
import { LLMServiceError } from '../../llm/errors/llm-service-error.js';
import { stainlessFailure, toLLMError } from '../../llm/internal/map-llm-error.js';
import { type LLM, type LLMRequest, type LLMResponse, normalizeMessages } from '../../llm/llm.js';
import { maskUrlCredentials } from '../../llm/mask-url-credentials.js';
import { finishResponse, lazy, wireModel } from '../internal/finish-response.js';
import { createProviderLLM, sdkClientOptions } from '../internal/provider-llm.js';
import type { OpenAIResponsesLLMConfig } from './responses-config.js';
import { type ResponsesReply, responsesFinishReason, responsesMessage, responsesUsage } from './responses-reply.js';

const openAIBaseURL = 'https://api.openai.com/v1';
const placeholderKey = 'not-needed';
const reasoningModels = /^(o\d|gpt-5|codex)/;

/**
 * An LLM that talks to the OpenAI Responses API (`POST /v1/responses`) through the `openai` client
 * (loaded on first use). Key: `apiKey`, else `OPENAI_API_KEY`; endpoint: `baseURL`, else
 * `OPENAI_BASE_URL`, else OpenAI. The client retries 408/409/429/5xx and connection errors.
 */
export function createOpenAIResponsesLLM(config: OpenAIResponsesLLMConfig): LLM {
  const baseURL = config.baseURL ?? process.env.OPENAI_BASE_URL ?? openAIBaseURL;
  const apiKey = config.apiKey ?? process.env.OPENAI_API_KEY ?? (config.baseURL ? placeholderKey : undefined);
  if (!apiKey) {
    throw new LLMAuthenticationError(`No API key for model '${config.model}': pass apiKey or set OPENAI_API_KEY`);
  }
  const client = lazy(async (): Promise<OpenAI> => {
    const { default: OpenAIClient } = await loadOptionalDependency(
      'The openai-responses provider',
      'openai',
      () => import('openai'),
    );
    return new OpenAIClient(sdkClientOptions(config, { apiKey, baseURL }));
  });
  const model = wireModel(config.model, ['openai', 'openai-responses']);
  const context = { model: config.model, baseURL: maskUrlCredentials(baseURL) };
  // A stateless call gets its reasoning back only as encrypted content: ask for it with reasoning
  // models (and whenever reasoning is configured); other models reject the `include`.
  const encrypted = config.encryptedReasoning ?? (config.reasoning !== undefined || reasoningModels.test(model));
  const store = config.store ?? false;

  function params(request: LLMRequest): ResponseCreateParamsNonStreaming {
    const { instructions, input } = toResponsesInput(normalizeMessages(request.messages), {
      visionEnabled: config.vision ?? true,
    });
    const tools = (request.tools ?? []).map((tool) => ({
      type: 'function' as const,
      name: tool.function.name,
      description: tool.function.description,
      parameters: tool.function.parameters as Record<string, unknown>,
      strict: false,
    }));
    return {
      model,
      input: input as ResponseCreateParamsNonStreaming['input'],
      ...(instructions !== '' && { instructions }),
      ...(tools.length > 0 && { tools }),
      store,
      ...(encrypted && !store && { include: ['reasoning.encrypted_content' as const] }),
      ...(config.reasoning && { reasoning: config.reasoning }),
      ...(config.temperature !== undefined && { temperature: config.temperature }),
      ...(config.maxOutputTokens !== undefined && { max_output_tokens: config.maxOutputTokens }),
    };
  }

  function finish(reply: ResponsesReply, startedAt: number): LLMResponse {
    const reason = responsesFinishReason(reply);
    return finishResponse(config, {
      id: reply.id,
      message: responsesMessage(reply),
      finishReason: reason.mapped,
      providerFinishReason: reason.raw,
      usage: responsesUsage(reply.usage, {
        model: config.model,
        responseId: reply.id,
        contextWindow: config.contextWindow ?? 0,
      }),
      startedAt,
    });
  }

  async function completeOnce(request: LLMRequest, startedAt: number): Promise<LLMResponse> {
    const reply = await (await client()).responses.create(params(request), {
      ...(request.signal && { signal: request.signal }),
    });
    return finish(reply as unknown as ResponsesReply, startedAt);
  }

  async function completeStreaming(request: LLMRequest, startedAt: number): Promise<LLMResponse> {
    const stream = await (await client()).responses.create(
      { ...params(request), stream: true },
      { ...(request.signal && { signal: request.signal }) },
    );
    let final: ResponsesReply | undefined;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') request.onDelta?.({ content: event.delta });
      else if (event.type === 'response.reasoning_summary_text.delta' || event.type === 'response.reasoning_text.delta')
        request.onDelta?.({ reasoning_content: event.delta });
      else if (event.type === 'response.completed' || event.type === 'response.incomplete')
        final = event.response as unknown as ResponsesReply;
      else if (event.type === 'response.failed') {
        const error = event.response.error;
        throw new LLMServiceError(
          `The response of model '${config.model}' at ${context.baseURL} failed: ${error?.message ?? 'no reason given'}`,
          {
            ...(error?.message && { providerMessage: error.message }),
            ...(error?.code && { providerCode: error.code }),
          },
        );
      }
    }
    if (final === undefined) {
      throw new LLMServiceError(`The stream of model '${config.model}' at ${context.baseURL} ended without a response`);
    }
    return finish(final, startedAt);
  }

  return createProviderLLM(config, {
    provider: 'openai-responses',
    completeOnce,
    completeStreaming,
    mapError: (error) => toLLMError(stainlessFailure(error), context),
    connection: { apiKey, baseURL },
  });
}

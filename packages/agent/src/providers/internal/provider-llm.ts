import { MissingDependencyError } from '../../dependencies/missing-dependency-error.js';
import type { LLM, LLMRequest, LLMResponse } from '../../llm/llm.js';
import type { BaseLLMConfig } from '../../llm/llm-config.js';
import { checkUsageId, DEFAULT_USAGE_ID } from '../../llm/usage-id.js';
import { headersWithBasicAuth, splitBaseUrl } from './base-url-credentials.js';
import { hideCredentials, llmCredentials } from './hide-credentials.js';

/** What differs between the providers' `LLM`s: how one call is made each way, and how their errors are mapped. */
export interface ProviderCalls {
  /** Which wire protocol it speaks (`LLM.provider`). */
  provider: string;
  /** One request, the whole reply at once. */
  completeOnce(request: LLMRequest, startedAt: number): Promise<LLMResponse>;
  /** One request, the reply streamed (deltas go to `request.onDelta`). */
  completeStreaming(request: LLMRequest, startedAt: number): Promise<LLMResponse>;
  /** Streams even when neither the config nor the request asks for it (Anthropic's long outputs). */
  alwaysStream?: boolean;
  /** The SDK's failure as a typed `LLMError`. */
  mapError(error: unknown, request: LLMRequest): Error;
  /** The API key and base URL the calls use (as resolved): hidden in every error the LLM raises. */
  connection?: { apiKey: string | undefined; baseURL: string | undefined };
}

/**
 * The `LLM` of a provider: streams when `config.stream` is set or the request wants deltas (`onDelta`), measures
 * latency from the start of the call, and raises every failure as the provider maps it.
 */
export function createProviderLLM(config: BaseLLMConfig, calls: ProviderCalls): LLM {
  const credentials = llmCredentials({
    apiKey: calls.connection?.apiKey ?? config.apiKey,
    headers: config.headers,
    baseURL: calls.connection?.baseURL ?? config.baseURL,
  });
  return {
    model: config.model,
    usageId: checkUsageId(config.usageId ?? DEFAULT_USAGE_ID),
    offline: false,
    provider: calls.provider,
    ...(config.pricing !== undefined && { pricing: config.pricing }),
    async complete(request) {
      const startedAt = performance.now();
      try {
        return config.stream || request.onDelta || calls.alwaysStream
          ? await calls.completeStreaming(request, startedAt)
          : await calls.completeOnce(request, startedAt);
      } catch (error) {
        // A missing SDK is not the provider's failure: it keeps its own type and install hint.
        if (MissingDependencyError.isInstance(error)) throw error;
        throw hideCredentials(calls.mapError(error, request), credentials);
      }
    },
  };
}

/**
 * The options of a Stainless-generated SDK client (openai, @anthropic-ai/sdk): timeout, retries and headers. The
 * base URL's userinfo becomes an `Authorization: Basic` header and its query the client's `defaultQuery` (fetch
 * refuses a URL with credentials, and the client would append its paths after the query).
 */
export function sdkClientOptions(
  config: BaseLLMConfig,
  connection: { apiKey: string; baseURL: string; apiKeyHeader?: string },
) {
  const parts = splitBaseUrl(connection.baseURL);
  let headers = headersWithBasicAuth(parts, config.headers);
  // The Basic header takes the `Authorization` the client would send its key in: a vendor that also reads the key
  // from a header of its own (Anthropic's `x-api-key`) still gets it there.
  const keyHeader = connection.apiKeyHeader;
  if (parts.authorization !== undefined && keyHeader !== undefined && headers !== undefined) {
    const configured = Object.keys(headers).some((name) => name.toLowerCase() === keyHeader);
    if (!configured) headers = { [keyHeader]: connection.apiKey, ...headers };
  }
  return {
    apiKey: connection.apiKey,
    baseURL: parts.baseURL,
    timeout: config.timeoutMs ?? 120_000,
    maxRetries: config.maxRetries ?? 4,
    ...(headers && { defaultHeaders: headers }),
    ...(parts.query && { defaultQuery: parts.query }),
  };
}

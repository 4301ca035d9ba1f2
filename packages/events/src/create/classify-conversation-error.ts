import type { ErrorClassification, FailureKind } from '../schemas/common.js';

type Category = Exclude<FailureKind, 'agent_action'> | 'agent_action' | 'agent_action_final';

const classifications: Record<Category, ErrorClassification> = {
  auth: { kind: 'auth', retryable: false, user_action: 'settings' },
  quota: { kind: 'quota', retryable: false, user_action: 'settings' },
  rate_limit: { kind: 'rate_limit', retryable: true, user_action: 'retry' },
  config: { kind: 'config', retryable: false, user_action: 'settings' },
  transient: { kind: 'transient', retryable: true, user_action: 'retry' },
  agent_action: { kind: 'agent_action', retryable: true, user_action: 'retry' },
  agent_action_final: { kind: 'agent_action', retryable: false, user_action: 'none' },
  internal: { kind: 'internal', retryable: false, user_action: 'none' },
  unknown: { kind: 'unknown', retryable: false, user_action: 'none' },
};

/** Codes with a fixed category, checked first (reference §8.9). */
const byCode = new Map<string, Category>([
  ['LLMAuthenticationError', 'auth'],
  ['ACPAuthRequired', 'auth'],
  ['LLMRateLimitError', 'rate_limit'],
  ['MaxBudgetReached', 'quota'],
  ['LLMBadRequestError', 'config'],
  ['ACPInitError', 'config'],
  ['ACPSpawnError', 'config'],
  ['ACPPromptError', 'config'],
  ['NotFoundError', 'config'],
  ['LibTmuxException', 'config'],
  ['LLMContextWindowExceedError', 'agent_action'],
  ['LLMMalformedConversationHistoryError', 'agent_action'],
  ['MaxIterationsReached', 'agent_action_final'],
  ['ConversationOwnershipLostError', 'agent_action_final'],
  ['KeyError', 'internal'],
  ['AssertionError', 'internal'],
  ['PydanticSerializationError', 'internal'],
  ['AttributeError', 'internal'],
  ['TypeError', 'internal'],
]);

/** Case-folded substrings of the detail, in the order the reference tries them. */
const byDetail: readonly [Category, readonly string[]][] = [
  [
    'auth',
    [
      'invalid api key',
      'incorrect api key',
      'authentication required',
      'invalid bearer token',
      'invalid proxy server token',
      'unauthorized',
      'error code: 401',
      'status": 401',
      'token_not_found',
      'api key is missing',
    ],
  ],
  [
    'quota',
    [
      'weekly usage limit',
      'daily quota',
      'session usage limit',
      'insufficient balance',
      'more credits',
      'budget has been exceeded',
    ],
  ],
  ['rate_limit', ['rate limit', 'error code: 429', 'status": 429']],
  [
    'config',
    [
      'provider not provided',
      'no models loaded',
      'does not support thinking',
      'model is no longer available',
      'model not found',
      'invalid params',
      'inactive_service',
      'powershell is not available',
    ],
  ],
  [
    'transient',
    [
      'timeout',
      'connection error',
      'connection closed',
      'service temporarily unavailable',
      'bad gateway',
      'cloudflare',
      'cannot connect',
      'name or service not known',
      'error code: 5',
    ],
  ],
  [
    'internal',
    ['on_token callback', 'duplicate tool names', 'list_tools', 'on_tools_changed', 'surrogates not allowed'],
  ],
];

/** Generic wrapper codes: only when neither the code nor the detail said more (reference §8.9). */
const transientWrapperCodes = new Set([
  'LLMServiceUnavailableError',
  'LLMTimeoutError',
  'ReadTimeout',
  'LLMNoResponseError',
  'MCPTimeoutError',
  'BadGatewayError',
  'HTTPStatusError',
  'RequestError',
  'CloudflareError',
  'OpenAIError',
  'APIError',
  'BaseLLMException',
  'AnthropicError',
  'OpenRouterException',
  'OllamaError',
]);

/**
 * The classification the reference computes for a ConversationErrorEvent that has none: first by
 * `code`, then by substrings of the case-folded `detail`, then generic wrapper codes are
 * transient; otherwise unknown. The detail text is never copied into the result. Returns a new object.
 */
export function classifyConversationError(code: string, detail: string): ErrorClassification {
  return { ...classifications[categorize(code, detail)] };
}

function categorize(code: string, detail: string): Category {
  const fixed = byCode.get(code);
  if (fixed !== undefined) return fixed;
  const folded = detail.toLowerCase();
  for (const [category, needles] of byDetail) {
    if (needles.some((needle) => folded.includes(needle))) return category;
  }
  return transientWrapperCodes.has(code) ? 'transient' : 'unknown';
}

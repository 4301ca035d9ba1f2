import type { LLMError } from '../../llm/errors/llm-error.js';
import { type ProviderFailure, toLLMError } from '../../llm/internal/map-llm-error.js';

/**
 * Reads what `@google/genai` throws: `ApiError` (a `status` and a message that is the JSON error body,
 * `{ error: { code, message, status } }`), or a fetch abort, which is a timeout unless the caller aborted.
 */
export function geminiFailure(error: unknown, signal: AbortSignal | undefined): ProviderFailure {
  const text = error instanceof Error ? error.message : String(error);
  if (signal?.aborted) return { kind: 'aborted', error, message: text };
  const name = error instanceof Error ? error.name : '';
  if (name === 'AbortError' || name === 'TimeoutError') return { kind: 'timeout', error, message: text };
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status !== 'number') return { kind: 'unknown', error, message: text };
  let message = text;
  let code: string | undefined;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown; status?: unknown; details?: unknown } };
    if (typeof body.error?.message === 'string') message = body.error.message;
    if (typeof body.error?.status === 'string') code = body.error.status;
    // Google puts the precise reason (e.g. API_KEY_INVALID) in an ErrorInfo detail.
    const reason = JSON.stringify(body.error?.details ?? '').match(/"reason":"([A-Z_]+)"/)?.[1];
    if (reason) code = reason;
  } catch {
    // not JSON: the text is the message
  }
  return { kind: 'http', error, status, message, ...(code !== undefined && { code }) };
}

export function mapGeminiError(
  error: unknown,
  context: { model: string; baseURL: string; signal: AbortSignal | undefined },
): LLMError {
  return toLLMError(geminiFailure(error, context.signal), context);
}

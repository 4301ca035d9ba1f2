import { z } from 'zod';
import { errorStatus } from '../../api/agent-error-status.js';
import { ServerError } from '../../errors.js';

/** OpenAI's error `type`s this face answers with. */
export type OpenAiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'not_found_error'
  | 'server_error'
  | 'requests'
  | 'insufficient_quota';

/**
 * A gateway request that cannot be answered: sent as OpenAI's error body with `status`, which the `openai` SDK
 * turns into its `APIError` subclasses (`BadRequestError`, `NotFoundError`, ...).
 */
export class OpenAiGatewayError extends ServerError {
  readonly status: number;
  readonly type: OpenAiErrorType;
  readonly param: string | null;

  constructor(
    options: { status: number; type: OpenAiErrorType; code: string; param?: string | null },
    message: string,
    cause?: unknown,
  ) {
    super(options.code, message, cause === undefined ? undefined : { cause });
    this.status = options.status;
    this.type = options.type;
    this.param = options.param ?? null;
  }
}

/** A well-formed body the gateway cannot act on (400 `invalid_request_error`). */
export function invalidRequest(message: string, param: string | null, code = 'invalid_request'): OpenAiGatewayError {
  return new OpenAiGatewayError({ status: 400, type: 'invalid_request_error', code, param }, message);
}

export const openAiErrorBodySchema = z
  .object({
    error: z.object({
      message: z.string(),
      type: z.string(),
      param: z.string().nullable(),
      code: z.string().nullable(),
    }),
  })
  .describe("OpenAI's error body: `error.message`, `type`, `param` (the offending field), `code`");
export type OpenAiErrorBody = z.infer<typeof openAiErrorBodySchema>;

export function openAiErrorBody(
  message: string,
  options: { type: string; code?: string | null; param?: string | null },
): OpenAiErrorBody {
  return { error: { message, type: options.type, param: options.param ?? null, code: options.code ?? null } };
}

/** The status and body for any error reaching the face: ours as they are, others by the status they stand for (`errorStatus`), else 500. */
export function openAiErrorOf(error: unknown): { status: number; body: OpenAiErrorBody } {
  if (OpenAiGatewayError.isInstance(error)) {
    return {
      status: error.status,
      body: openAiErrorBody(error.message, { type: error.type, code: error.code, param: error.param }),
    };
  }
  const status = errorStatus(error);
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (status !== undefined) {
    const type =
      status >= 500
        ? 'server_error'
        : status === 401
          ? 'authentication_error'
          : status === 404
            ? 'not_found_error'
            : 'invalid_request_error';
    return { status, body: openAiErrorBody(message, { type, code: typeof code === 'string' ? code : null }) };
  }
  return { status: 500, body: openAiErrorBody(message, { type: 'server_error', code: 'internal_error' }) };
}

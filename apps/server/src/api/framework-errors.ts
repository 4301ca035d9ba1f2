import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { faceOfTarget } from '../faces/face-paths.js';
import type { createHostOriginCheck } from '../security/host-origin.js';
import { type RouterRefusal, sendRefusal } from './router-refusal.js';

/** The answers to the router's own refusals, which name nothing of the request. */
const ANSWERS: Record<string, RouterRefusal> = {
  FST_ERR_BAD_URL: {
    status: 400,
    reason: 'bad_url',
    message: 'Bad Request: the request path is not valid percent-encoded UTF-8',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    status: 414,
    reason: 'uri_too_long',
    message: 'URI Too Long: a path parameter is longer than 100 characters',
  },
};

const FAILED: RouterRefusal = { status: 500, reason: 'internal_error', message: 'Internal Server Error' };

/**
 * Fastify's `frameworkErrors`: the router refuses a path it cannot decode or a parameter too long before any hook
 * runs, and by default answers with the whole path quoted, in a shape of its own. Here the Host/Origin check runs
 * first (those requests skip the `onRequest` hooks that run it for every other), then the refusal says what was wrong
 * without quoting the path, in the shape of the face the target's path names (a JSON-RPC error under `/api/mcp`).
 */
export function frameworkErrorHandler(
  hostOriginCheck: () => ReturnType<typeof createHostOriginCheck> | undefined,
): NonNullable<FastifyServerOptions['frameworkErrors']> {
  const handler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    // No route was matched: the face is that of the target, whose path did not decode as a whole.
    const face = faceOfTarget(request.raw.url);
    const refused = hostOriginCheck()?.(request.headers, request.raw.url, request.raw.rawHeaders);
    if (refused !== undefined) {
      void sendRefusal(reply, face, { status: refused.status, message: refused.detail, reason: refused.problem });
      return;
    }
    const answer = ANSWERS[error.code] ?? FAILED;
    if (answer.status >= 500) request.log.error({ err: error }, 'the router failed');
    void sendRefusal(reply, face, answer);
  };
  return handler as NonNullable<FastifyServerOptions['frameworkErrors']>;
}

import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { createHostOriginCheck } from '../security/host-origin.js';

/** The answers to the router's own refusals, which name nothing of the request. */
const ANSWERS: Record<string, { status: number; detail: string }> = {
  FST_ERR_BAD_URL: { status: 400, detail: 'Bad Request: the request path is not valid percent-encoded UTF-8' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, detail: 'URI Too Long: a path parameter is longer than 100 characters' },
};

/**
 * Fastify's `frameworkErrors`: the router refuses a path it cannot decode or a parameter too long before any hook
 * runs, and by default answers with the whole path quoted, in a shape of its own. Here the Host/Origin check runs
 * first (those requests skip the `onRequest` hooks that run it for every other), then the refusal says what was wrong
 * without quoting the path.
 */
export function frameworkErrorHandler(
  hostOriginCheck: () => ReturnType<typeof createHostOriginCheck> | undefined,
): NonNullable<FastifyServerOptions['frameworkErrors']> {
  const handler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const refused = hostOriginCheck()?.(request.headers, request.raw.url, request.raw.rawHeaders);
    if (refused !== undefined) {
      void reply.code(refused.status).send({ detail: refused.detail });
      return;
    }
    const answer = ANSWERS[error.code] ?? { status: 500, detail: 'Internal Server Error' };
    if (answer.status >= 500) request.log.error({ err: error }, 'the router failed');
    void reply.code(answer.status).send({ detail: answer.detail });
  };
  return handler as NonNullable<FastifyServerOptions['frameworkErrors']>;
}

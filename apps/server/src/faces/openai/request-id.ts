import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The header OpenAI names each answer with; the `openai` SDK reads it as `_request_id` and `APIError.requestID`. */
export const REQUEST_ID_HEADER = 'x-request-id';

const ids = new WeakMap<FastifyRequest, string>();

/** The request's id as OpenAI spells one (`req_` and 32 hex digits), made on first use. */
export function requestIdOf(request: FastifyRequest): string {
  let id = ids.get(request);
  if (id === undefined) {
    id = `req_${randomUUID().replaceAll('-', '')}`;
    ids.set(request, id);
  }
  return id;
}

/**
 * A route's `onSend` hook: every answer of the gateway carries its request id, errors too, those of the session-key
 * check included (an `onSend` hook of the route runs for a reply its `onRequest` hooks sent).
 */
export function sendRequestId(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  if (!reply.hasHeader(REQUEST_ID_HEADER)) reply.header(REQUEST_ID_HEADER, requestIdOf(request));
  done(null, payload);
}

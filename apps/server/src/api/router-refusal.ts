import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { faceOfTarget, type ProtocolFace, targetPath } from '../faces/face-paths.js';
import { clientText } from '../internal/client-text.js';

/** A refusal made before any route's handler runs: by the router, the Host/Origin check, the session key, shutdown. */
export interface RouterRefusal {
  status: number;
  /** What was wrong, quoting nothing of the path. */
  message: string;
  /** A stable name of the cause (`not_found`, `method_not_allowed`, `unauthorized`, `host_not_allowed`, ...). */
  reason: string;
}

/**
 * The JSON-RPC code of a refusal on a JSON-RPC face (A2A, MCP): -32600 Invalid Request for a request the server cannot
 * take as sent (path, method, URL, body), -32000 (the implementation-defined server error MCP's own SDK answers its
 * transport refusals with) for one refused for who sent it or when (Host/Origin, the session key, shutdown), -32603
 * for a server failure.
 */
function jsonRpcCode(status: number): number {
  if (status === 401 || status === 403 || status === 503) return -32000;
  return status >= 500 ? -32603 : -32600;
}

/** OpenAI's error `type` for a status (the `openai` SDK picks its `APIError` subclass by the status). */
function openAiType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

/**
 * A refusal in the shape the face's clients read: a JSON-RPC error response with id null (no request was read) on A2A
 * and MCP, with the HTTP status and the cause in `data`; OpenAI's `{error: {message, type, param, code}}` on the
 * gateway; the REST API's `{detail}` on AG-UI (an `HttpAgent` raises it with `status` and `payload`) with the cause as
 * `code`; `{detail}` alone elsewhere, as the REST API has always answered.
 */
export function refusalBody(face: ProtocolFace, refusal: RouterRefusal): Record<string, unknown> {
  const { status, message, reason } = refusal;
  switch (face) {
    case 'a2a':
    case 'mcp':
      return { jsonrpc: '2.0', id: null, error: { code: jsonRpcCode(status), message, data: { status, reason } } };
    case 'openai':
      return { error: { message, type: openAiType(status), param: null, code: reason } };
    case 'ag-ui':
      return { detail: message, code: reason };
    default:
      return { detail: message };
  }
}

/** The face a request is addressed to: that of the route it matched, else that of its target. */
export function faceOfRequest(request: FastifyRequest): ProtocolFace {
  return faceOfTarget(request.routeOptions?.url ?? request.raw.url);
}

/**
 * Sends a refusal in the face's shape. The body goes out serialized already: the route the request matched (if any)
 * declares its own error schemas, which a refusal made before it ran need not fit.
 */
export function sendRefusal(reply: FastifyReply, face: ProtocolFace, refusal: RouterRefusal): FastifyReply {
  return reply
    .code(refusal.status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(refusalBody(face, refusal)));
}

/** What each face serves, as its 404 and 405 say. */
const ENDPOINTS: Readonly<Record<Exclude<ProtocolFace, 'rest'>, string>> = {
  'ag-ui': 'the AG-UI endpoint is POST /api/ag-ui',
  a2a: 'the A2A endpoint is POST /api/a2a (JSON-RPC 2.0), its agent card GET /.well-known/agent-card.json',
  mcp: 'the MCP endpoint is /api/mcp (streamable HTTP: POST, GET and DELETE)',
  openai:
    'the gateway serves GET /v1/models, GET /v1/models/{model}, POST /v1/chat/completions, POST /v1/responses and GET /v1/responses/{response_id}',
};

/**
 * The answer to a request no route matched. On a face's path: 405 with `Allow` when the path is the face's endpoint
 * and another method is served there (JSON-RPC and streamable HTTP endpoints take POST), else 404 naming the face's
 * endpoint; in the face's shape either way. Elsewhere the REST API's bare 404. The path is never quoted.
 */
export function sendNotFound(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const face = faceOfTarget(request.raw.url);
  if (face === 'rest') return reply.code(404).send({ detail: 'Not Found' });
  const path = targetPath(request.raw.url ?? '');
  const allowed = app.supportedMethods.filter((method) => app.hasRoute({ method, url: path }));
  // The request's own method served there: a spelling the router does not take (`/api/mcp#x`), no method refused.
  if (allowed.length > 0 && !allowed.includes(request.method)) {
    return sendRefusal(reply.header('allow', allowed.join(', ')), face, {
      status: 405,
      reason: 'method_not_allowed',
      message: `Method Not Allowed: ${clientText(request.method)} is not served here; ${ENDPOINTS[face]}`,
    });
  }
  return sendRefusal(reply, face, {
    status: 404,
    reason: 'not_found',
    message: `Not Found: no such path; ${ENDPOINTS[face]}`,
  });
}

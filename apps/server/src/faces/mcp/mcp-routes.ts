import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { StartConversationRequest } from '../../api/request-schemas.js';
import { API_ERRORS, errorResponses, errorSchema } from '../../api/response-schemas.js';
import type { ConversationListing } from '../../conversations/conversation-listing.js';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import { MissingDependencyError } from '../../dependencies/missing-dependency-error.js';
import { ServerError } from '../../errors.js';
import { clientText } from '../../internal/client-text.js';
import { currentCaller } from '../../security/request-caller.js';
import { MCP_PATH } from '../face-paths.js';
import { createManagerHost } from './manager-host.js';
import { McpSessionLimitError } from './mcp-session-limit-error.js';
import type { McpSessionLimits } from './mcp-session-limits.js';
import { McpSessions } from './mcp-sessions.js';

export { MCP_PATH };

export interface McpRoutesOptions {
  version: string;
  /** The index `list_conversations` and `resources/list` page through (the one the REST search reads). */
  listing: ConversationListing;
  /** The create body of conversations `start_conversation` makes without one (config `mcpConversation`). */
  defaultConversation?: StartConversationRequest | undefined;
  /** Session bounds (their number, idle expiry, replay buffer, back-pressure); the defaults of `McpSessions` otherwise. */
  sessions?: McpSessionLimits | undefined;
}

const SESSION_HEADER = 'mcp-session-id';

const LAST_EVENT_ID_HEADER = 'last-event-id';

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers[name];
  return Array.isArray(header) ? header[0] : header;
}

const sessionIdOf = (request: FastifyRequest): string | undefined => headerOf(request, SESSION_HEADER);

function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some(
    (message) =>
      typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'initialize',
  );
}

/** The first revision of MCP without JSON-RPC batches (2025-06-18): a POST body is one message from it on. */
const FIRST_VERSION_WITHOUT_BATCHES = '2025-06-18';

/**
 * Why a batch (a JSON array body) is refused, or undefined when it may be served: an initialize is never part of a
 * batch (MCP 2025-03-26, the one revision with batches), and a session of a later revision, named by the
 * `Mcp-Protocol-Version` header, has no batches at all. Without the header the revision is 2025-03-26, as MCP says.
 */
function batchRefusal(request: FastifyRequest): string | undefined {
  if (!Array.isArray(request.body)) return undefined;
  if (isInitialize(request.body)) return 'Invalid Request: an initialize request is never part of a JSON-RPC batch';
  const version = headerOf(request, 'mcp-protocol-version');
  if (version !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= FIRST_VERSION_WITHOUT_BATCHES) {
    return `Invalid Request: MCP ${version} has no JSON-RPC batches (removed in ${FIRST_VERSION_WITHOUT_BATCHES}): send one message per POST`;
  }
  return undefined;
}

/** A JSON-RPC error answered over plain HTTP (no session to answer it in), as the MCP transport spec shows them. */
function refuse(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.code(status).send({ jsonrpc: '2.0', id: null, error: { code, message } });
}

/**
 * A POST body that is not JSON-RPC, answered as JSON-RPC says (HTTP 400 with -32700 Parse error for what is not
 * JSON, -32600 Invalid Request for JSON that is no JSON-RPC message) rather than in the REST API's error shapes,
 * which an MCP client does not read; a body in a charset other than UTF-8, or of another media type, is a 415 with
 * -32700; one over the size limit a 413 with -32600 naming the limit. Any other error goes on to the server's error
 * handler.
 */
function refuseMalformedBody(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return refuse(reply, 400, -32600, 'Invalid Request: the body is not a JSON-RPC 2.0 message or a batch of them');
  }
  // The server's JSON parser (api/json-parser.ts) refuses what is not JSON with MalformedBodyError.
  if (ServerError.isInstance(error) && error.code === 'malformed_body') {
    return refuse(reply, 400, -32700, `Parse error: ${error.message}`);
  }
  // A body in another charset than UTF-8 (UnsupportedCharsetError): still unreadable JSON, answered with its 415.
  if (ServerError.isInstance(error) && error.code === 'unsupported_charset') {
    return refuse(reply, 415, -32700, `Parse error: ${error.message}`);
  }
  // Fastify's own refusal of the body: a media type with no parser (415), an empty body (400). Answered by the server's
  // error handler in the REST shape, it failed the route's JSON-RPC response schema and became a 500.
  const status = (error as { statusCode?: unknown }).statusCode;
  if (error.code?.startsWith('FST_ERR_CTP_') === true && (status === 400 || status === 415)) {
    const why = status === 415 ? 'the body is not application/json' : 'the body is empty';
    return refuse(reply, status, -32700, `Parse error: ${why}`);
  }
  // Never read: no parse error, but a request too large to take (the REST shape here was no error an MCP client reads).
  if (status === 413) {
    return refuse(
      reply,
      413,
      -32600,
      `Invalid Request: the request body is larger than this server's limit of ${request.routeOptions.bodyLimit} bytes`,
    );
  }
  throw error;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes the session key as `Authorization: Bearer <key>` too (route-auth's `PublicRouteConfig`). */
    bearerAuth?: boolean | 'openai';
  }
}

/** MCP clients send the session key as MCP's bearer token, or as the REST header (see route-auth). */
const security: Array<Record<string, string[]>> = [{ sessionApiKey: [] }, { bearerAuth: [] }];

const rpcMessageSchema = z
  .looseObject({ jsonrpc: z.literal('2.0') })
  .describe('A JSON-RPC 2.0 message of MCP (initialize, tools/list, tools/call, notifications), or a batch');

const rpcErrorSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.null(),
    error: z.looseObject({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
  })
  .describe(
    'A JSON-RPC error: -32000 no session (400) or a Last-Event-ID never sent (400) or no longer stored (410), -32600 a batch MCP does not take (400), -32001 unknown session (404)',
  );

const streamSchema = z
  .string()
  .describe('application/json (one JSON-RPC response) or text/event-stream (responses, progress notifications)');

/**
 * The MCP face over streamable HTTP (MCP 2025-06-18 transport): `POST /api/mcp` (an `initialize` without
 * `Mcp-Session-Id` opens a session; every other message names it), `GET` (the session's server-to-client stream)
 * and `DELETE` (ends the session). Behind the session key and Host/Origin checks of every `/api` route; a session
 * answers only the principal (session key) that opened it.
 */
export function registerMcpRoutes(app: FastifyInstance, manager: ConversationManager, options: McpRoutesOptions): void {
  const sessions = new McpSessions(
    createManagerHost(manager, {
      listing: options.listing,
      defaultConversation: options.defaultConversation,
      logger: app.log,
    }),
    {
      name: 'x',
      version: options.version,
      onUnexpectedError: (error, tool) => app.log.warn({ err: error, tool }, 'mcp: tool call failed'),
    },
    options.sessions,
  );
  app.addHook('preClose', async () => sessions.close());

  const handle = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    await sessions.sweepIfDue();
    const id = sessionIdOf(request);
    // A session is its opener's: another key's request naming it finds none, as for an id never given.
    const principal = currentCaller()?.principal;
    let session = id === undefined ? undefined : sessions.get(id, principal);
    if (id !== undefined && session === undefined) {
      return refuse(
        reply,
        404,
        -32001,
        `MCP session '${clientText(id)}' not found (ended, or this server restarted): initialize again`,
      );
    }
    const batch = request.method === 'POST' ? batchRefusal(request) : undefined;
    if (batch !== undefined) return refuse(reply, 400, -32600, batch);
    if (session === undefined) {
      if (request.method !== 'POST' || !isInitialize(request.body)) {
        return refuse(reply, 400, -32000, `No ${SESSION_HEADER} header: a session starts with an initialize request`);
      }
      try {
        session = await sessions.open(principal);
      } catch (error) {
        if (McpSessionLimitError.isInstance(error)) return refuse(reply, 503, -32000, error.message);
        if (!MissingDependencyError.isInstance(error)) throw error;
        return reply.code(503).send({ detail: error.message, code: error.code });
      }
    }
    const lastEventId = request.method === 'GET' ? headerOf(request, LAST_EVENT_ID_HEADER) : undefined;
    const resumable = lastEventId === undefined ? 'stored' : sessions.resumeCheck(session, lastEventId);
    if (resumable !== 'stored') {
      return refuse(
        reply,
        resumable === 'evicted' ? 410 : 400,
        -32000,
        resumable === 'evicted'
          ? `Event '${clientText(lastEventId)}' is no longer in this session's replay buffer (it keeps the latest messages only): read the conversation's events resource (x://conversations/{id}/events?start=N) from the last progress you saw`
          : `Event '${clientText(lastEventId)}' was never sent in this session: resume with the id of an event it sent`,
      );
    }
    reply.hijack();
    await sessions.handle(session, request.raw, reply.raw, request.body);
    return undefined;
  };

  const common = {
    tags: ['mcp'],
    security,
    response: {
      ...errorResponses(API_ERRORS),
      401: rpcErrorSchema.describe(
        'No session key, or a wrong one (as `Authorization: Bearer` or `X-Session-API-Key`): a JSON-RPC error -32000',
      ),
      403: rpcErrorSchema.describe('A JSON-RPC error -32000: the Host or Origin check refused the request'),
      405: rpcErrorSchema.describe('A JSON-RPC error -32600: a method the endpoint does not take (see `Allow`)'),
      413: rpcErrorSchema.describe("A JSON-RPC error -32600: the body is over the server's size limit"),
      200: streamSchema,
      400: rpcErrorSchema,
      404: rpcErrorSchema,
      410: rpcErrorSchema,
      415: rpcErrorSchema.describe('A JSON-RPC error -32700 for a body declared in a charset other than UTF-8'),
      503: rpcErrorSchema
        .or(errorSchema)
        .describe(
          "A JSON-RPC error -32000 when an initialize finds a session limit reached (mcpMaxSessions, or the caller's mcpMaxSessionsPerPrincipal); without the MCP SDK installed, the install command; shutting down",
        ),
    },
  };
  app.post(
    MCP_PATH,
    {
      config: { bearerAuth: true },
      errorHandler: refuseMalformedBody,
      schema: {
        ...common,
        summary: 'MCP streamable HTTP: send JSON-RPC messages (initialize opens a session)',
        operationId: 'mcpPost',
        body: rpcMessageSchema.or(z.array(rpcMessageSchema)),
      },
    },
    handle,
  );
  app.get(
    MCP_PATH,
    {
      config: { bearerAuth: true },
      errorHandler: refuseMalformedBody,
      schema: {
        ...common,
        summary:
          "MCP streamable HTTP: the session's server-to-client event stream, or (Last-Event-ID) a dropped stream resumed",
        operationId: 'mcpStream',
      },
    },
    handle,
  );
  app.delete(
    MCP_PATH,
    {
      config: { bearerAuth: true },
      errorHandler: refuseMalformedBody,
      schema: { ...common, summary: 'MCP streamable HTTP: end the session', operationId: 'mcpEndSession' },
    },
    handle,
  );
}

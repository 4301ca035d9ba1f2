import type { FastifyInstance, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import { faceOfRequest, type RouterRefusal, sendRefusal } from '../api/router-refusal.js';
import type { ProtocolFace } from '../faces/face-paths.js';
import { isValidSessionKey } from '../websocket/session-keys.js';
import { headerLines } from './header-lines.js';
import { actAs, type Caller, callerOfKey } from './request-caller.js';

/** The route option that opts a route out of the session key: `{ config: { public: true } }`. Nothing else does. */
export interface PublicRouteConfig {
  public?: boolean;
  /**
   * The route also takes the session key as `Authorization: Bearer <key>`: `'openai'` as OpenAI clients send their
   * API key; `true` as MCP clients send their bearer token. Both 401s carry `WWW-Authenticate: Bearer` (RFC 6750).
   * Every 401 is in the shape of the route's face (`api/router-refusal.ts`): OpenAI's error body on the gateway, a
   * JSON-RPC error on A2A and MCP, `{detail}` on the REST API and AG-UI.
   */
  bearerAuth?: boolean | 'openai';
}

/** Whether a route was declared public; anything but exactly `config.public === true` is protected. */
export function isPublicRoute(route: Pick<RouteOptions, 'config'>): boolean {
  return (route.config as PublicRouteConfig | undefined)?.public === true;
}

/** The decorator that makes every route registered in an encapsulated scope public (see `makeScopePublic`). */
const PUBLIC_SCOPE = 'xPublicRouteScope';

/**
 * Makes every route registered from now on in this encapsulated plugin scope (and its children) public: for
 * third-party plugins whose route options cannot carry `config: { public: true }` (the API docs page).
 */
export function makeScopePublic(scope: FastifyInstance): void {
  scope.decorate(PUBLIC_SCOPE, true);
}

/** The session key a request presents: the `X-Session-API-Key` header (a repeated one is refused before). */
function presentedKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const header = headers['x-session-api-key'];
  return Array.isArray(header) ? header[0] : header;
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive, RFC 6750). */
function bearerToken(headers: Record<string, string | string[] | undefined>): string | undefined {
  const header = headers.authorization;
  const match = /^Bearer[ \t]+(\S+)\s*$/i.exec((Array.isArray(header) ? header[0] : header) ?? '');
  return match?.[1];
}

const BEARER_CHALLENGE = 'Bearer realm="x"';

/**
 * The 401 of a route, in its face's shape (`api/router-refusal.ts`): the REST API's bare `Unauthorized`, OpenAI's
 * `invalid_api_key`, on the other faces a message saying how to send the key; `repeated` names a credentials header
 * sent more than once.
 */
function unauthorized(
  request: FastifyRequest,
  bearer: PublicRouteConfig['bearerAuth'],
  repeated: string | undefined,
): { face: ProtocolFace; refusal: RouterRefusal } {
  // A route that takes the key as OpenAI clients send it answers as OpenAI does, wherever it is mounted.
  const face = bearer === 'openai' ? 'openai' : faceOfRequest(request);
  const reason = face === 'openai' ? 'invalid_api_key' : 'unauthorized';
  const refused = (message: string) => ({ face, refusal: { status: 401, reason, message } });
  if (repeated !== undefined) return refused(`Unauthorized: more than one ${repeated} header`);
  if (face === 'rest') return refused('Unauthorized');
  const how =
    bearer === 'openai'
      ? 'Authorization: Bearer <key>'
      : bearer === true
        ? 'Authorization: Bearer <key> or X-Session-API-Key'
        : 'X-Session-API-Key';
  const what = face === 'openai' ? 'Invalid or missing API key' : 'Unauthorized: no session key, or a wrong one';
  return refused(`${what}: send a session key of this server as ${how}`);
}

/**
 * The first credentials header the route reads that a request sent more than once, or undefined. Each may come once:
 * Node keeps the first `Authorization` line and joins repeated `X-Session-API-Key` lines, and a proxy in front may act
 * on another line than the server does.
 */
function repeatedCredentials(rawHeaders: readonly string[], takesBearer: boolean): string | undefined {
  if (headerLines(rawHeaders, 'x-session-api-key').length > 1) return 'X-Session-API-Key';
  if (takesBearer && headerLines(rawHeaders, 'authorization').length > 1) return 'Authorization';
  return undefined;
}

/**
 * Secure by construction: an `onRoute` hook puts the session-key check first in the `onRequest` hooks of
 * every route as it is registered, unless its options say `config: { public: true }`. The check therefore
 * belongs to the route the router matched, whatever spelling of the path reached it (percent-encoding,
 * absolute-form targets, ...), and no route can exist without it. With no keys configured every request
 * passes (§11.1: an empty key list means no authentication).
 *
 * Routes registered inside a scope given to `makeScopePublic` are public too.
 *
 * Must be installed before any route is registered (plugins registered later inherit the hook).
 */
export function installRouteAuth(
  app: FastifyInstance,
  keys: readonly string[],
  approvalDeciders?: readonly string[] | undefined,
): void {
  /** The caller of each admitted request: the handler runs as it (see the preHandler hook below). */
  const callers = new WeakMap<FastifyRequest, Caller>();
  /** The check of one kind of route: which credentials it takes, and how it refuses. */
  const checkFor = (bearer: PublicRouteConfig['bearerAuth']): onRequestHookHandler => {
    const takesBearer = bearer === true || bearer === 'openai';
    return (request, reply, done) => {
      const repeated = keys.length === 0 ? undefined : repeatedCredentials(request.raw.rawHeaders, takesBearer);
      const header = presentedKey(request.headers);
      const bearerKey = takesBearer ? bearerToken(request.headers) : undefined;
      const accepted =
        keys.length === 0
          ? undefined
          : isValidSessionKey(keys, header)
            ? header
            : isValidSessionKey(keys, bearerKey)
              ? bearerKey
              : null;
      if (accepted !== null && repeated === undefined) {
        callers.set(request, callerOfKey(keys, accepted, approvalDeciders));
        done();
        return;
      }
      if (takesBearer) void reply.header('www-authenticate', BEARER_CHALLENGE);
      const { face, refusal } = unauthorized(request, bearer, repeated);
      void sendRefusal(reply, face, refusal);
    };
  };
  const checks = { plain: checkFor(false), bearer: checkFor(true), openai: checkFor('openai') };
  // The last hook before the handler, and called back synchronously: the handler and all it awaits run as the
  // request's caller (entering it in `onRequest` would not survive the body being read).
  app.addHook('preHandler', (request, _reply, done) => {
    const caller = callers.get(request);
    if (caller === undefined) done();
    else actAs(caller, done);
  });
  app.addHook('onRoute', function (this: FastifyInstance, route) {
    if (isPublicRoute(route) || this.hasDecorator(PUBLIC_SCOPE)) return;
    const existing = route.onRequest === undefined ? [] : [route.onRequest].flat();
    const bearer = (route.config as PublicRouteConfig | undefined)?.bearerAuth;
    const check = bearer === 'openai' ? checks.openai : bearer === true ? checks.bearer : checks.plain;
    route.onRequest = [check, ...existing];
  });
}

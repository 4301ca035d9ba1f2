import type { FastifyInstance, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import { isValidSessionKey } from '../websocket/session-keys.js';
import { actAs, type Caller, callerOfKey } from './request-caller.js';

/** The route option that opts a route out of the session key: `{ config: { public: true } }`. Nothing else does. */
export interface PublicRouteConfig {
  public?: boolean;
  /**
   * The route also takes the session key as `Authorization: Bearer <key>`: `'openai'` as OpenAI clients send their
   * API key, a missing or wrong key answered with OpenAI's error body; `true` as MCP clients send their bearer
   * token, answered with the REST API's `{detail: 'Unauthorized'}`. Both 401s carry `WWW-Authenticate: Bearer`
   * (RFC 6750).
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

/** The session key a request presents: the `X-Session-API-Key` header (first value when repeated). */
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

const OPENAI_UNAUTHORIZED = {
  error: {
    message: 'Invalid or missing API key: send a session key of this server as Authorization: Bearer <key>',
    type: 'authentication_error',
    param: null,
    code: 'invalid_api_key',
  },
};

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
      if (accepted !== null) {
        callers.set(request, callerOfKey(keys, accepted, approvalDeciders));
        done();
        return;
      }
      if (takesBearer) void reply.header('www-authenticate', BEARER_CHALLENGE);
      void reply.code(401).send(bearer === 'openai' ? OPENAI_UNAUTHORIZED : { detail: 'Unauthorized' });
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

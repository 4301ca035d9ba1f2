import { RemoteAuthError } from '../errors/remote-auth-error.js';
import { RemoteConversationNotFoundError } from '../errors/remote-conversation-not-found-error.js';
import { RemoteRequestError } from '../errors/remote-request-error.js';
import { RemoteRouteNotFoundError } from '../errors/remote-route-not-found-error.js';

/** A request a route refused: what a route's own error is made from. */
export interface RefusedRequest {
  method: string;
  url: string;
  status: number;
  detail: string;
  /** The `code` the answer's body names, when it names one (e.g. `git_workspace_gone`). */
  code: string | undefined;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** A 404 becomes `RemoteConversationNotFoundError` for this conversation. */
  conversationId?: string;
  /** Statuses that are not errors: the response body is returned as for a 2xx. */
  allow?: readonly number[];
  /**
   * The error of a route's own refusals (e.g. the git routes' 403 for a path outside the workspace, which is not a
   * refused key): asked first for every status but 401; undefined leaves the usual error.
   */
  refusal?: (failure: RefusedRequest) => Error | undefined;
  /** Given the headers of an answer that is returned (a 2xx or an allowed status), for what a route says in them. */
  onHeaders?: (headers: Headers) => void;
}

/** How a server's detail says the conversation is missing. */
const NOT_FOUND = /conversation not found/i;

/** The JSON REST calls of the client: global `fetch`, the session key header, typed errors. */
export class RestClient {
  readonly serverUrl: string;
  readonly #apiKey: string | undefined;

  constructor(serverUrl: string, apiKey: string | undefined) {
    this.serverUrl = serverUrl.replace(/\/+$/, '');
    this.#apiKey = apiKey;
  }

  #notFound(method: string, url: string, conversationId: string, detail: string): Promise<Error> {
    return classify404(this, method, url, conversationId, detail);
  }

  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = new URL(`${this.serverUrl}${path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#apiKey !== undefined) headers['x-session-api-key'] = this.#apiKey;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      });
    } catch (error) {
      throw new RemoteRequestError({
        method,
        url: url.href,
        status: 0,
        detail: (error as Error).message,
        cause: error,
      });
    }
    const text = await response.text();
    const body = parseJson(text);
    if (response.ok || options.allow?.includes(response.status)) {
      options.onHeaders?.(response.headers);
      return body as T;
    }
    if (response.status !== 401 && options.refusal !== undefined) {
      const failure = {
        method,
        url: url.href,
        status: response.status,
        detail: detailOf(body, text),
        code: codeOf(body),
      };
      const refused = options.refusal(failure);
      if (refused !== undefined) throw refused;
    }
    // Both are the stream's auth failure too (an upgrade refused with either closes it as 4001): one error class.
    if (response.status === 401 || response.status === 403) {
      throw new RemoteAuthError(url.href, { status: response.status, detail: detailOf(body, text) });
    }
    if (response.status === 404 && options.conversationId !== undefined) {
      throw await this.#notFound(method, url.href, options.conversationId, detailOf(body, text));
    }
    // Some routes (`pause`, `interrupt`) answer an unknown conversation with 400, as the reference's do; the detail
    // says which, and a missing conversation is the same error whichever command found it.
    if (response.status === 400 && options.conversationId !== undefined && NOT_FOUND.test(detailOf(body, text))) {
      throw new RemoteConversationNotFoundError({ conversationId: options.conversationId, serverUrl: this.serverUrl });
    }
    throw new RemoteRequestError({ method, url: url.href, status: response.status, detail: detailOf(body, text) });
  }
}

/**
 * Which 404 it was. The reference's servers answer a missing route and (on most conversation routes) a
 * missing conversation alike (`{"detail": "Not Found"}`), so unless the detail says which, the conversation
 * is looked up: if it exists, the route is what is missing.
 */
async function classify404(
  client: RestClient,
  method: string,
  url: string,
  conversationId: string,
  detail: string,
): Promise<Error> {
  const missing = (): Error => new RemoteConversationNotFoundError({ conversationId, serverUrl: client.serverUrl });
  if (NOT_FOUND.test(detail)) return missing();
  if (/event/i.test(detail)) return new RemoteRequestError({ method, url, status: 404, detail });
  if (method === 'GET' && new URL(url).pathname === `/api/conversations/${encodeURIComponent(conversationId)}`) {
    return missing();
  }
  try {
    await client.request('GET', `/api/conversations/${encodeURIComponent(conversationId)}`);
  } catch (error) {
    if (RemoteRequestError.isInstance(error) && error.status === 404) return missing();
    return new RemoteRequestError({ method, url, status: 404, detail, cause: error });
  }
  return new RemoteRouteNotFoundError({ method, url });
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function codeOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('code' in body)) return undefined;
  const { code } = body as { code: unknown };
  return typeof code === 'string' ? code : undefined;
}

function detailOf(body: unknown, text: string): string {
  if (typeof body === 'object' && body !== null && 'detail' in body) {
    const { detail } = body as { detail: unknown };
    return typeof detail === 'string' ? detail : JSON.stringify(detail);
  }
  return text.slice(0, 500);
}

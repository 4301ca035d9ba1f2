import { readSessionKey } from './session-key.js';
import type { ConversationInfo, Page } from './types.js';

/** A non-2xx answer; `status` 401 means the session key is missing or wrong. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`HTTP ${status}: ${detail}`);
    this.name = 'ApiError';
  }
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/** Called whenever the server answers 401: the page then asks for the key again. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** A 401 seen elsewhere (the conversation page's @x/client calls and event stream): the key prompt comes up. */
export function notifyUnauthorized(): void {
  for (const listener of unauthorizedListeners) listener();
}

/** One JSON request with the session key; a non-2xx answer throws `ApiError` (401 also tells the listeners). */
export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const key = readSessionKey();
  if (key !== undefined) headers['X-Session-API-Key'] = key;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'omit',
    cache: 'no-store',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) {
    if (response.status === 401) notifyUnauthorized();
    let detail = text;
    try {
      const parsed = JSON.parse(text) as { detail?: unknown };
      if (parsed.detail !== undefined)
        detail = typeof parsed.detail === 'string' ? parsed.detail : JSON.stringify(parsed.detail);
    } catch {
      // not JSON: keep the text
    }
    throw new ApiError(response.status, detail);
  }
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

const enc = encodeURIComponent;

/**
 * The REST routes of the list and the new-conversation form (§11.2), and x's decision records. The conversation
 * page itself talks to the server through @x/client and @x/react.
 */
export const api = {
  /** `text`: the server's `q` filter (title or id contains it), so the search covers every conversation. */
  searchConversations: (query: { pageId?: string; limit: number; status?: string; text?: string }) => {
    const params = new URLSearchParams({ limit: String(query.limit), sort_order: 'UPDATED_AT_DESC' });
    if (query.pageId !== undefined) params.set('page_id', query.pageId);
    if (query.status !== undefined && query.status !== '') params.set('status', query.status);
    if (query.text !== undefined && query.text.trim() !== '') params.set('q', query.text.trim());
    return request<Page<ConversationInfo>>('GET', `/api/conversations/search?${params}`);
  },
  /** `POST /api/conversations`: a StartConversationRequest (an initial message runs at once). */
  startConversation: (body: Record<string, unknown>) => request<ConversationInfo>('POST', '/api/conversations', body),
  /** Who decided what on the conversation's actions (x's decision records). */
  decisions: (id: string) => request<{ decisions: DecisionJson[] }>('GET', `/api/conversations/${enc(id)}/decisions`),
};

/** A recorded decision on one action (x's `events/.decisions/` record). */
export interface DecisionJson {
  action_id: string;
  tool_name: string;
  decision: { kind: string; reason?: string };
  principal: string;
  decided_at: string;
}

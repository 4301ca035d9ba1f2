import { readSessionKey } from './session-key.js';
import type { ConversationInfo, EventJson, Page } from './types.js';

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
    if (response.status === 401) for (const listener of unauthorizedListeners) listener();
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

/** The REST routes the viewer uses: the same ones any client uses (§11.2, §11.3). */
export const api = {
  /** `text`: the server's `q` filter (title or id contains it), so the search covers every conversation. */
  searchConversations: (query: { pageId?: string; limit: number; status?: string; text?: string }) => {
    const params = new URLSearchParams({ limit: String(query.limit), sort_order: 'UPDATED_AT_DESC' });
    if (query.pageId !== undefined) params.set('page_id', query.pageId);
    if (query.status !== undefined && query.status !== '') params.set('status', query.status);
    if (query.text !== undefined && query.text.trim() !== '') params.set('q', query.text.trim());
    return request<Page<ConversationInfo>>('GET', `/api/conversations/search?${params}`);
  },
  conversation: (id: string) => request<ConversationInfo>('GET', `/api/conversations/${enc(id)}`),
  /** `POST /api/conversations`: a StartConversationRequest (an initial message runs at once). */
  startConversation: (body: Record<string, unknown>) => request<ConversationInfo>('POST', '/api/conversations', body),
  /** Newest first, starting at `pageId` (inclusive) or at the last event. */
  eventsBackward: (id: string, limit: number, pageId?: string) => {
    const params = new URLSearchParams({ limit: String(limit), sort_order: 'TIMESTAMP_DESC' });
    if (pageId !== undefined) params.set('page_id', pageId);
    return request<Page<EventJson>>('GET', `/api/conversations/${enc(id)}/events/search?${params}`);
  },
  sendMessage: (id: string, text: string) =>
    request('POST', `/api/conversations/${enc(id)}/events`, {
      role: 'user',
      content: [{ type: 'text', text }],
      run: true,
    }),
  run: (id: string) => request('POST', `/api/conversations/${enc(id)}/run`),
  pause: (id: string) => request('POST', `/api/conversations/${enc(id)}/pause`),
  interrupt: (id: string) => request('POST', `/api/conversations/${enc(id)}/interrupt`),
  respondToConfirmation: (id: string, accept: boolean, reason?: string) =>
    request('POST', `/api/conversations/${enc(id)}/events/respond_to_confirmation`, {
      accept,
      reason: reason ?? (accept ? 'Approved in the viewer.' : 'Rejected in the viewer.'),
    }),
  /** Who decided what on the conversation's actions (x's decision records). */
  decisions: (id: string) => request<{ decisions: DecisionJson[] }>('GET', `/api/conversations/${enc(id)}/decisions`),
  fork: (id: string, fromEventId: string) =>
    request<ConversationInfo>('POST', `/api/conversations/${enc(id)}/fork`, { from_event_id: fromEventId }),
};

/** A recorded decision on one action (x's `events/.decisions/` record). */
export interface DecisionJson {
  action_id: string;
  tool_name: string;
  decision: { kind: string; reason?: string };
  principal: string;
  decided_at: string;
}

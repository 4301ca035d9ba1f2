import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/api-client.js';
import type { ConversationInfo } from '../api/types.js';
import { formatCost, formatDate, titleOf, totalCost } from './format.js';
import { NewConversationForm } from './new-conversation-form.js';

const LIMIT = 25;
const POLL_MS = 3_000;
const STATUSES = ['', 'idle', 'running', 'paused', 'waiting_for_confirmation', 'finished', 'error', 'stuck'];

/** How long typing must pause before the list asks the server for the new text. */
const TYPING_PAUSE_MS = 250;

/**
 * The conversation list: newest update first, paged, filtered by status and text (title or id) on the server, so
 * a search covers every conversation, not only the loaded pages; refreshed live.
 */
export function ConversationList() {
  const [pages, setPages] = useState<ConversationInfo[][]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [query, setQuery] = useState('');
  /** The text the shown list was asked for (`query` once typing pauses). */
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  /** The filters now in force: an answer asked for with others (typing went on meanwhile) is dropped. */
  const current = useRef({ status, text });
  current.current = { status, text };
  const stale = () => current.current.status !== status || current.current.text !== text;

  useEffect(() => {
    const timer = setTimeout(() => {
      if (query.trim() === text) return;
      setPages([]);
      setText(query.trim());
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [query, text]);

  const refresh = useCallback(async () => {
    try {
      // Refresh as many items as are shown, from the top, so live changes (status, cost, order) appear.
      const shown = Math.max(LIMIT, pages.flat().length);
      const items: ConversationInfo[] = [];
      let pageId: string | undefined;
      let nextId: string | null = null;
      while (items.length < shown) {
        const page = await api.searchConversations({
          limit: Math.min(100, shown - items.length),
          status,
          text,
          ...(pageId === undefined ? {} : { pageId }),
        });
        items.push(...page.items);
        nextId = page.next_page_id;
        if (nextId === null) break;
        pageId = nextId;
      }
      if (stale()) return;
      setPages([items]);
      setNext(nextId);
      setError(undefined);
    } catch (caught) {
      setError((caught as Error).message);
    }
  }, [status, text, pages]);

  useEffect(() => {
    void refresh();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void refresh();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [status, text, pages.flat().length]);

  const loadMore = async () => {
    if (next === null) return;
    const page = await api.searchConversations({ limit: LIMIT, status, text, pageId: next });
    if (stale()) return;
    setPages((current) => [...current, page.items]);
    setNext(page.next_page_id);
  };

  const items = pages.flat();
  return (
    <main class="list-view">
      <header class="toolbar">
        <h1>Conversations</h1>
        <input
          type="search"
          placeholder="Search title or id"
          aria-label="Search conversations"
          value={query}
          onInput={(event) => setQuery((event.target as HTMLInputElement).value)}
        />
        <select
          aria-label="Status"
          value={status}
          onChange={(event) => {
            setPages([]);
            setStatus((event.target as HTMLSelectElement).value);
          }}
        >
          {STATUSES.map((value) => (
            <option key={value} value={value}>
              {value === '' ? 'any status' : value}
            </option>
          ))}
        </select>
      </header>
      <NewConversationForm />
      {error === undefined ? null : (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <table class="conversations">
        <thead>
          <tr>
            <th>Title</th>
            <th>Status</th>
            <th>Updated</th>
            <th>Cost</th>
          </tr>
        </thead>
        <tbody>
          {items.map((info) => (
            <tr key={info.id} data-conversation-id={info.id}>
              <td>
                <a href={`#/c/${encodeURIComponent(info.id)}`}>{titleOf(info)}</a>
              </td>
              <td>
                <span class={`status status-${info.execution_status ?? 'unknown'}`}>
                  {info.execution_status ?? '?'}
                </span>
              </td>
              <td>{formatDate(info.updated_at)}</td>
              <td>{formatCost(totalCost(info))}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {items.length === 0 ? <p class="muted">No conversations.</p> : null}
      {next === null ? null : (
        <button type="button" onClick={() => void loadMore()}>
          Load more
        </button>
      )}
    </main>
  );
}

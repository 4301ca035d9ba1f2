import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/api-client.js';
import { isHiddenInTimeline } from '../api/event-kinds.js';
import { EventStream } from '../api/event-stream.js';
import type { ConversationInfo, EventJson } from '../api/types.js';

/** Events fetched per range request: the first screen needs one page, older pages load as the reader scrolls up. */
export const PAGE_SIZE = 50;

export interface ConversationEvents {
  /** Persisted events loaded so far, in log order, each id once. */
  events: readonly EventJson[];
  byId: ReadonlyMap<string, EventJson>;
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder(): Promise<void>;
  /** Text and reasoning streamed since the last agent event (StreamingDeltaEvent). */
  streaming: { content: string; reasoning: string };
  info: ConversationInfo | undefined;
  connection: 'connecting' | 'open' | 'closed';
  error: string | undefined;
  refreshInfo(): Promise<void>;
  /** Drops the socket as a network failure would (used by the tests). */
  dropConnection(): void;
}

/**
 * One conversation's events: the newest page by REST, older pages by range on demand, and everything
 * newer through the WebSocket, resumed after the newest event already held so nothing is missed or
 * repeated. Incoming events are applied once per animation frame so a fast stream keeps the page responsive.
 */
export function useConversationEvents(conversationId: string, onUnauthorized: () => void): ConversationEvents {
  const [version, setVersion] = useState(0);
  const store = useRef({
    events: [] as EventJson[],
    byId: new Map<string, EventJson>(),
    olderPageId: null as string | null,
    pending: [] as EventJson[],
    frame: 0,
  });
  const [hasOlder, setHasOlder] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [streaming, setStreaming] = useState({ content: '', reasoning: '' });
  const [info, setInfo] = useState<ConversationInfo | undefined>(undefined);
  const [connection, setConnection] = useState<'connecting' | 'open' | 'closed'>('connecting');
  const [error, setError] = useState<string | undefined>(undefined);
  const streamRef = useRef<EventStream | undefined>(undefined);

  const refreshInfo = useCallback(async () => {
    try {
      setInfo(await api.conversation(conversationId));
    } catch (caught) {
      setError((caught as Error).message);
    }
  }, [conversationId]);

  useEffect(() => {
    const state = store.current;
    state.events = [];
    state.byId = new Map();
    state.pending = [];
    let cancelled = false;
    const flush = () => {
      state.frame = 0;
      let added = false;
      for (const event of state.pending.splice(0)) {
        if (state.byId.has(event.id)) continue;
        state.byId.set(event.id, event);
        if (!isHiddenInTimeline(event)) {
          state.events.push(event);
          added = true;
        }
      }
      if (added) setVersion((value) => value + 1);
    };
    const enqueue = (event: EventJson) => {
      state.pending.push(event);
      if (state.frame === 0) state.frame = requestAnimationFrame(flush);
    };
    (async () => {
      try {
        const [page, conversation] = await Promise.all([
          api.eventsBackward(conversationId, PAGE_SIZE),
          api.conversation(conversationId),
        ]);
        if (cancelled) return;
        setInfo(conversation);
        const newest = page.items[0]?.id;
        for (const event of [...page.items].reverse()) {
          state.byId.set(event.id, event);
          if (!isHiddenInTimeline(event)) state.events.push(event);
        }
        state.olderPageId = page.next_page_id;
        setHasOlder(page.next_page_id !== null);
        setVersion((value) => value + 1);
        streamRef.current = new EventStream(conversationId, newest, {
          onEvent(event) {
            if (event.source === 'agent' && (event.kind === 'MessageEvent' || event.kind === 'ActionEvent')) {
              setStreaming({ content: '', reasoning: '' });
            }
            if (event.kind === 'ConversationStateUpdateEvent' && typeof event.key === 'string') {
              const key = event.key;
              setInfo((current) => (current === undefined ? current : { ...current, [key]: event.value }));
            }
            enqueue(event);
          },
          onLive(event) {
            if (
              event.kind === 'ConversationStateUpdateEvent' &&
              typeof event.value === 'object' &&
              event.value !== null
            ) {
              setInfo((current) => ({ ...(current ?? {}), ...(event.value as ConversationInfo) }));
            } else if (event.kind === 'StreamingDeltaEvent') {
              setStreaming((current) => ({
                content: current.content + (typeof event.content === 'string' ? event.content : ''),
                reasoning:
                  current.reasoning + (typeof event.reasoning_content === 'string' ? event.reasoning_content : ''),
              }));
            } else if (event.kind === 'ServerErrorEvent') {
              setError(String(event.detail ?? event.code ?? 'server error'));
            }
          },
          onStatus: setConnection,
          onUnauthorized,
        });
      } catch (caught) {
        if (!cancelled) setError((caught as Error).message);
      }
    })();
    return () => {
      cancelled = true;
      if (state.frame !== 0) cancelAnimationFrame(state.frame);
      streamRef.current?.close();
      streamRef.current = undefined;
    };
  }, [conversationId, onUnauthorized]);

  const loadOlder = useCallback(async () => {
    const state = store.current;
    if (state.olderPageId === null || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const page = await api.eventsBackward(conversationId, PAGE_SIZE, state.olderPageId);
      const older: EventJson[] = [];
      for (const event of [...page.items].reverse()) {
        if (state.byId.has(event.id)) continue;
        state.byId.set(event.id, event);
        if (!isHiddenInTimeline(event)) older.push(event);
      }
      state.events = [...older, ...state.events];
      state.olderPageId = page.next_page_id;
      setHasOlder(page.next_page_id !== null);
      setVersion((value) => value + 1);
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setLoadingOlder(false);
    }
  }, [conversationId, loadingOlder]);

  void version;
  return {
    events: store.current.events,
    byId: store.current.byId,
    hasOlder,
    loadingOlder,
    loadOlder,
    streaming,
    info,
    connection,
    error,
    refreshInfo,
    dropConnection: () => streamRef.current?.drop(),
  };
}

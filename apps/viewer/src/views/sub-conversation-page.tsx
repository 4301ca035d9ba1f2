import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError } from '../api/api-client.js';
import { isHiddenInTimeline } from '../api/event-kinds.js';
import { insightApi } from '../api/insight-api.js';
import type { EventJson } from '../api/types.js';
import { Timeline } from '../timeline/timeline.js';

const noStreaming = { content: '', reasoning: '' };

/**
 * A sub-agent's conversation (`#/c/<parent>/sub/<child>`), read-only: it lives inside its parent's directory
 * and is driven by the parent's run, so it has no socket, no message box and no Fork buttons. Reached from
 * the parent's tree picture.
 */
export function SubConversationPage({ parentId, subId }: { parentId: string; subId: string }) {
  const [events, setEvents] = useState<EventJson[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    let cancelled = false;
    insightApi.subConversationEvents(parentId, subId).then(
      (answer) => !cancelled && setEvents(answer.items),
      (caught: unknown) =>
        !cancelled && setError(caught instanceof ApiError ? caught.detail : (caught as Error).message),
    );
    return () => {
      cancelled = true;
    };
  }, [parentId, subId]);
  const byId = useMemo(() => new Map((events ?? []).map((event) => [event.id, event])), [events]);
  const shown = useMemo(() => (events ?? []).filter((event) => !isHiddenInTimeline(event)), [events]);
  return (
    <main class="conversation-view sub-conversation">
      <header class="toolbar">
        <a href={`#/c/${encodeURIComponent(parentId)}`} class="back">
          ← Parent conversation {parentId.slice(0, 8)}
        </a>
        <h1>Sub-agent conversation {subId.slice(0, 8)}</h1>
        <span class="status">read-only</span>
      </header>
      {error === undefined ? null : (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <Timeline
        events={shown}
        byId={byId}
        hasOlder={false}
        loadingOlder={false}
        loadOlder={async () => undefined}
        streaming={noStreaming}
      />
    </main>
  );
}

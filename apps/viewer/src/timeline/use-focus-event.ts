import { useEffect } from 'preact/hooks';
import type { ConversationEvents } from './use-conversation-events.js';

/**
 * Brings the event `eventId` (from a `#/c/<id>/e/<event>` link, e.g. a node of the tree) into view and marks
 * it: older ranges are loaded until it is among the loaded events, then its card is scrolled to and outlined.
 */
export function useFocusEvent(eventId: string | undefined, data: ConversationEvents): void {
  const loaded = data.byId.has(eventId ?? '');
  useEffect(() => {
    if (eventId === undefined) return;
    if (!loaded) {
      if (data.hasOlder && !data.loadingOlder) void data.loadOlder();
      return;
    }
    const frame = requestAnimationFrame(() => {
      for (const card of document.querySelectorAll('.timeline article.focused')) card.classList.remove('focused');
      const card = document.querySelector(`.timeline article[data-event-id="${CSS.escape(eventId)}"]`);
      if (card === null) return;
      card.classList.add('focused');
      card.scrollIntoView({ block: 'center' });
    });
    return () => cancelAnimationFrame(frame);
  }, [eventId, loaded, data.hasOlder, data.loadingOlder, data.events.length]);
}

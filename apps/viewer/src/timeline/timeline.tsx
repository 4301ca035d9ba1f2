import { useEffect, useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import type { EventJson } from '../api/types.js';
import { Markdown } from '../render/markdown.js';
import { branchNotes } from './branch-notes.js';
import { EventCard, type EventCardContext } from './event-card.js';

export interface TimelineProps {
  events: readonly EventJson[];
  byId: ReadonlyMap<string, EventJson>;
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder(): Promise<void>;
  streaming: { content: string; reasoning: string };
  /** Absent: no Fork buttons (a read-only log, such as a sub-agent's). */
  onFork?(event: EventJson): void;
}

/**
 * The events as a scrolling timeline, newest at the bottom. Only the newest page is fetched at first;
 * reaching the top loads the previous range. Off-screen cards skip layout and paint
 * (`content-visibility: auto`), so a long conversation stays cheap to render.
 */
export function Timeline(props: TimelineProps) {
  const scroller = useRef<HTMLElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const lastHeight = useRef(0);
  const firstId = useRef<string | undefined>(undefined);
  const notes = useMemo(() => branchNotes(props.events), [props.events, props.events.length]);
  const context: EventCardContext = {
    byId: props.byId,
    branchNote: (event) => notes.get(event.id),
    ...(props.onFork === undefined ? {} : { onFork: props.onFork }),
  };

  // Keep the reader's place: stick to the bottom while at the bottom; when older events are prepended, keep
  // the same events in view.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element === null) return;
    const first = props.events[0]?.id;
    if (first !== firstId.current && firstId.current !== undefined && !atBottom.current) {
      element.scrollTop += element.scrollHeight - lastHeight.current;
    } else if (atBottom.current) {
      element.scrollTop = element.scrollHeight;
    }
    firstId.current = first;
    lastHeight.current = element.scrollHeight;
  });

  useEffect(() => {
    const element = sentinel.current;
    if (element === null || !props.hasOlder) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void props.loadOlder();
      },
      { root: scroller.current, rootMargin: '200px 0px 0px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [props.hasOlder, props.loadOlder, props.events.length]);

  const onScroll = () => {
    const element = scroller.current;
    if (element === null) return;
    atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
  };

  const { content, reasoning } = props.streaming;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to scroll it
    <section class="timeline" ref={scroller} onScroll={onScroll} tabIndex={0} aria-label="Conversation events">
      {props.hasOlder ? (
        <div ref={sentinel} class="older">
          <button type="button" onClick={() => void props.loadOlder()} disabled={props.loadingOlder}>
            {props.loadingOlder ? 'Loading…' : 'Load earlier events'}
          </button>
        </div>
      ) : (
        <p class="muted start">Start of the conversation</p>
      )}
      {props.events.map((event) => (
        <EventCard key={event.id} event={event} context={context} />
      ))}
      {content === '' && reasoning === '' ? null : (
        <article class="event streaming" aria-live="polite">
          <header>
            <span class="label">Agent (streaming)</span>
          </header>
          {reasoning === '' ? null : <pre class="output thinking-live">{reasoning}</pre>}
          {content === '' ? null : <Markdown text={content} />}
        </article>
      )}
    </section>
  );
}

import { RemoteAuthError } from '@x/client';
import type { AnyEvent } from '@x/events';
import { eventToJson } from '@x/events';
import { type ConnectionStatus, useConversation } from '@x/react';
import { useEffect, useMemo } from 'preact/hooks';
import { notifyUnauthorized } from '../api/api-client.js';
import { isHiddenInTimeline } from '../api/event-kinds.js';
import { readSessionKey } from '../api/session-key.js';
import type { ConversationInfo, EventJson } from '../api/types.js';

/** Events per page: the first screen streams the newest page, older pages load as the reader scrolls up. */
const PAGE_SIZE = 50;

export interface ConversationEvents {
  /** Persisted events loaded so far that the timeline draws, in log order, each id once. */
  events: readonly EventJson[];
  /** Every persisted event loaded so far, by id (also those the timeline does not draw). */
  byId: ReadonlyMap<string, EventJson>;
  /** The log's length as far as the page knows: changes when an event arrives, not when older ones load. */
  logLength: number;
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder(): Promise<void>;
  /** Text and reasoning streamed since the last agent event (StreamingDeltaEvent). */
  streaming: { content: string; reasoning: string };
  /** The conversation's state (its full_state snapshot with later field updates); undefined until the first. */
  info: ConversationInfo | undefined;
  connection: ConnectionStatus;
  error: string | undefined;
  send(text: string): Promise<void>;
  run(): Promise<void>;
  pause(): Promise<void>;
  interrupt(): Promise<void>;
  confirm(): Promise<void>;
  reject(reason?: string): Promise<void>;
}

/** The JSON of a parsed event, made once per event object so cards keep their identity across renders. */
const jsonOf = new WeakMap<AnyEvent, EventJson>();
function toJson(event: AnyEvent): EventJson {
  let json = jsonOf.get(event);
  if (json === undefined) {
    json = eventToJson(event) as EventJson;
    jsonOf.set(event, json);
  }
  return json;
}

/**
 * One conversation through `useConversation` of @x/react: the newest page streamed from `events/count - 50`
 * (never the whole log from index 0), older pages on demand, live events after, resumed by log index after a
 * dropped socket. A bad key (on the stream or a command) brings up the key prompt.
 */
export function useConversationEvents(conversationId: string): ConversationEvents {
  const apiKey = readSessionKey();
  const conversation = useConversation({
    baseUrl: location.origin,
    conversationId,
    fromIndex: -PAGE_SIZE,
    reconnect: { initialDelayMs: 250, maxDelayMs: 8_000 },
    ...(apiKey === undefined ? {} : { apiKey }),
  });
  const { error } = conversation;
  useEffect(() => {
    if (RemoteAuthError.isInstance(error)) notifyUnauthorized();
  }, [error]);
  const { byId, events } = useMemo(() => {
    const byId = new Map<string, EventJson>();
    const events: EventJson[] = [];
    for (const event of conversation.events) {
      const json = toJson(event);
      byId.set(json.id, json);
      if (!isHiddenInTimeline(json)) events.push(json);
    }
    return { byId, events };
  }, [conversation.events]);
  const streaming = useMemo(
    () => ({ content: conversation.streamingText, reasoning: conversation.streamingReasoning }),
    [conversation.streamingText, conversation.streamingReasoning],
  );
  const state = conversation.state;
  const info = useMemo(
    () => (Object.keys(state).length === 0 ? undefined : ({ id: conversationId, ...state } as ConversationInfo)),
    [state, conversationId],
  );
  return {
    events,
    byId,
    logLength: conversation.firstIndex + conversation.events.length,
    hasOlder: conversation.hasOlder,
    loadingOlder: conversation.loadingOlder,
    loadOlder: () => conversation.loadOlder(PAGE_SIZE),
    streaming,
    info,
    connection: conversation.connection,
    error: error?.message,
    send: (text) => conversation.send(text),
    run: conversation.run,
    pause: conversation.pause,
    interrupt: conversation.interrupt,
    confirm: conversation.confirm,
    reject: conversation.reject,
  };
}

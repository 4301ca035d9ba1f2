import { serializeEvent } from '@x/events';
import { clientText } from '../../internal/client-text.js';
import { McpCursorError } from './mcp-cursor-error.js';
import type { McpConversation, McpConversationHost } from './mcp-host.js';
import { pageCursor, pagePosition } from './mcp-page-cursor.js';
import { McpResourceError } from './mcp-resource-error.js';

/** A conversation's state (OpenHands JSON: the server's ConversationInfo). */
export const CONVERSATION_URI_TEMPLATE = 'x://conversations/{conversation_id}';
/** A page of a conversation's log: `start` (the first event's index, default 0) and `limit` events (default 100). */
export const EVENTS_URI_TEMPLATE = 'x://conversations/{conversation_id}/events{?start,limit}';

export const DEFAULT_EVENTS_LIMIT = 100;
export const MAX_EVENTS_LIMIT = 1000;
/** Conversations per `resources/list` page: 100 resources, two per conversation. */
const LIST_PAGE_CONVERSATIONS = 50;
const JSON_TYPE = 'application/json';

/** What a resource URI names. */
export type McpResourceRef =
  | { kind: 'state'; conversationId: string }
  | { kind: 'events'; conversationId: string; start: number; limit: number };

export const conversationUri = (id: string): string => `x://conversations/${encodeURIComponent(id)}`;
export const eventsUri = (id: string, start = 0, limit = DEFAULT_EVENTS_LIMIT): string =>
  `${conversationUri(id)}/events?start=${start}&limit=${limit}`;

function invalid(uri: string, why: string): McpResourceError {
  return new McpResourceError(
    'invalid_resource_uri',
    `Resource '${clientText(uri)}': ${why} (the resources are ${CONVERSATION_URI_TEMPLATE} and ${EVENTS_URI_TEMPLATE})`,
    { uri },
  );
}

/** A query parameter's integer in `[range.min, range.max]`; `range.fallback` when it is absent. */
function integerParam(
  uri: string,
  params: URLSearchParams,
  name: string,
  range: { fallback: number; min: number; max: number },
): number {
  const text = params.get(name);
  if (text === null) return range.fallback;
  const value = Number(text);
  if (!/^\d{1,9}$/.test(text) || value < range.min || value > range.max) {
    throw invalid(uri, `${name} must be an integer from ${range.min} to ${range.max}`);
  }
  return value;
}

/** A path segment percent-decoded; a stray `%` or a cut UTF-8 sequence makes the URI none of ours. */
function decodedSegment(uri: string, segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalid(uri, 'the conversation id is not valid percent-encoding');
  }
}

/** Parses a resource URI of the face; McpResourceError (`invalid_resource_uri`) for anything else. */
export function parseResourceUri(uri: string): McpResourceRef {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw invalid(uri, 'not a URI');
  }
  const segments = url.pathname.split('/').slice(1);
  if (url.protocol !== 'x:' || url.host !== 'conversations' || segments[0] === undefined || segments[0] === '') {
    throw invalid(uri, 'no resource of this server');
  }
  const conversationId = decodedSegment(uri, segments[0]);
  if (segments.length === 1) {
    if (url.search !== '') throw invalid(uri, 'a conversation takes no query');
    return { kind: 'state', conversationId };
  }
  if (segments.length !== 2 || segments[1] !== 'events') throw invalid(uri, 'no resource of this server');
  for (const name of url.searchParams.keys()) {
    if (name !== 'start' && name !== 'limit') throw invalid(uri, `unknown query parameter '${clientText(name)}'`);
  }
  const start = integerParam(uri, url.searchParams, 'start', { fallback: 0, min: 0, max: 999_999_999 });
  const limit = integerParam(uri, url.searchParams, 'limit', {
    fallback: DEFAULT_EVENTS_LIMIT,
    min: 1,
    max: MAX_EVENTS_LIMIT,
  });
  return { kind: 'events', conversationId, start, limit };
}

/** The conversation a resource URI names; McpResourceError (`resource_not_found`) when there is none. */
export async function resourceConversation(
  host: McpConversationHost,
  uri: string,
): Promise<{ ref: McpResourceRef; conversation: McpConversation }> {
  const ref = parseResourceUri(uri);
  const conversation = await host.find(ref.conversationId);
  if (conversation === undefined) {
    throw new McpResourceError(
      'resource_not_found',
      `Resource '${clientText(uri)}': no conversation '${clientText(ref.conversationId)}' here (see resources/list)`,
      { uri, conversation_id: ref.conversationId },
    );
  }
  return { ref, conversation };
}

/** `resources/templates/list`. */
export function mcpResourceTemplates() {
  return [
    {
      uriTemplate: CONVERSATION_URI_TEMPLATE,
      name: 'conversation',
      title: 'Conversation state',
      description: "A conversation's state in OpenHands JSON (ConversationInfo: execution_status, agent, stats, ...)",
      mimeType: JSON_TYPE,
    },
    {
      uriTemplate: EVENTS_URI_TEMPLATE,
      name: 'conversation-events',
      title: 'Conversation events',
      description: `A page of a conversation's event log in OpenHands JSON: { items, next_page_id } from index start (default 0), limit events (default ${DEFAULT_EVENTS_LIMIT}, at most ${MAX_EVENTS_LIMIT}); next_page_id is the next page's start, null at the end`,
      mimeType: JSON_TYPE,
    },
  ];
}

/**
 * `resources/list`: each conversation's state and first events page, a page of 50 conversations (100 resources) at
 * a time (`cursor`: one it gave, naming where its page ended).
 */
export async function listMcpResources(host: McpConversationHost, cursor: string | undefined) {
  const after = cursor === undefined ? undefined : pagePosition('resources/list', cursor);
  if (cursor !== undefined && after === undefined) {
    throw new McpCursorError('resources/list', cursor, 'see the nextCursor of a page');
  }
  const page = await host.page({ after, limit: LIST_PAGE_CONVERSATIONS });
  const resources = page.conversations.flatMap((summary) => {
    const label = summary.title ?? summary.conversation_id;
    return [
      {
        uri: conversationUri(summary.conversation_id),
        name: `conversation ${summary.conversation_id}`,
        title: `${label} (${summary.status})`,
        mimeType: JSON_TYPE,
      },
      {
        uri: eventsUri(summary.conversation_id),
        name: `events of ${summary.conversation_id}`,
        title: `${label}: events`,
        mimeType: JSON_TYPE,
      },
    ];
  });
  return { resources, ...(page.next === undefined ? {} : { nextCursor: pageCursor('resources/list', page.next) }) };
}

/** `resources/read`: the state, or a page of events, as one JSON text. */
export async function readMcpResource(host: McpConversationHost, uri: string) {
  const { ref, conversation } = await resourceConversation(host, uri);
  let text: string;
  if (ref.kind === 'state') {
    text = JSON.stringify(await conversation.state());
  } else {
    const { events, total } = await conversation.events(ref.start, ref.limit);
    const end = ref.start + events.length;
    // Events keep the text they were stored with (serializeEvent), as the reference's event files.
    const next = end < total ? JSON.stringify(String(end)) : 'null';
    text = `{"items":[${events.map(serializeEvent).join(',')}],"next_page_id":${next}}`;
  }
  return { contents: [{ uri, mimeType: JSON_TYPE, text }] };
}

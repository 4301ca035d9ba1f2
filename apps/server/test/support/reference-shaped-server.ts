import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEvent } from '@x/events';
import { type WebSocket, WebSocketServer } from 'ws';

type Json = Record<string, unknown>;

/**
 * A small agent server in the reference's shape, on loopback: what the Python server does on the routes
 * the TypeScript client uses. It ignores `from_index` (no replay without `resend_mode`), answers `since`
 * replays by timestamp, sends no resume header, answers a missing route and a missing conversation on
 * its conversation routes alike (`{"detail": "Not Found"}`), and has no `/navigate` route.
 */
export interface ReferenceShapedServer {
  url: string;
  /** Conversation id → its events (JSON as written). */
  readonly conversations: Map<string, Json[]>;
  /** Every socket URL asked for, in order. */
  readonly socketUrls: string[];
  /** Every request line and body, in order. */
  readonly requests: Array<{ method: string; path: string; body: unknown }>;
  /** Appends an event and sends it to the live sockets of the conversation. */
  emit(id: string, text: string): Json;
  /** Drops every open socket (the client reconnects). */
  dropSockets(): void;
  close(): Promise<void>;
}

function info(id: string, extra: Json = {}): Json {
  return { id, execution_status: 'idle', leaf_event_id: null, title: null, tags: {}, ...extra };
}

export async function startReferenceShapedServer(): Promise<ReferenceShapedServer> {
  const conversations = new Map<string, Json[]>();
  const sockets = new Map<string, Set<WebSocket>>();
  const socketUrls: string[] = [];
  const requests: ReferenceShapedServer['requests'] = [];
  const send = (response: ServerResponse, status: number, body: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const readBody = async (request: IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text === '' ? undefined : JSON.parse(text);
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const body = await readBody(request);
      requests.push({ method: request.method ?? '', path: url.pathname, body });
      const match = /^\/api\/conversations\/([^/]+)(?:\/(.*))?$/.exec(url.pathname);
      if (match === null) return send(response, 404, { detail: 'Not Found' });
      const [, id = '', rest = ''] = match;
      const events = conversations.get(id);
      if (request.method === 'GET' && rest === '') {
        return events === undefined ? send(response, 404, { detail: 'Not Found' }) : send(response, 200, info(id));
      }
      if (rest.startsWith('events')) {
        if (events === undefined) return send(response, 404, { detail: `Conversation not found: ${id}` });
        if (rest === 'events/count') return send(response, 200, events.length);
        if (rest === 'events/search') {
          const ordered = url.searchParams.get('sort_order') === 'TIMESTAMP_DESC' ? [...events].reverse() : events;
          const limit = Number(url.searchParams.get('limit') ?? 100);
          return send(response, 200, { items: ordered.slice(0, limit), next_page_id: null });
        }
      }
      if (request.method === 'POST' && rest === 'fork') {
        if (events === undefined) return send(response, 404, { detail: 'Source conversation not found' });
        const forkId = (body as { id?: string } | undefined)?.id ?? '11111111-2222-4333-8444-555555555555';
        conversations.set(forkId, [...events]);
        return send(response, 201, info(forkId, { forked_from_conversation_id: id }));
      }
      if (request.method === 'POST' && rest === 'secrets') {
        // The reference's `HTTPException(404)` without detail, same body as a missing route.
        if (events === undefined) return send(response, 404, { detail: 'Not Found' });
        return send(response, 200, { success: true });
      }
      return send(response, 404, { detail: 'Not Found' });
    })().catch((error: unknown) => send(response, 500, { detail: String(error) }));
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    socketUrls.push(url.pathname + url.search);
    const id = url.pathname.split('/').pop() ?? '';
    wss.handleUpgrade(request, socket, head, (ws) => {
      const events = conversations.get(id);
      if (events === undefined) {
        ws.close(4004, 'Conversation not found');
        return;
      }
      const live = sockets.get(id) ?? new Set<WebSocket>();
      sockets.set(id, live);
      live.add(ws);
      ws.on('close', () => live.delete(ws));
      ws.send(JSON.stringify(createEvent('ConversationStateUpdateEvent', { key: 'full_state', value: info(id) })));
      const mode = url.searchParams.get('resend_mode');
      const after = url.searchParams.get('after_timestamp');
      const replay =
        mode === 'all'
          ? events
          : mode === 'since' && after !== null
            ? events.filter((e) => String(e.timestamp) >= after)
            : [];
      for (const event of replay) ws.send(JSON.stringify(event));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    conversations,
    socketUrls,
    requests,
    emit(id, text) {
      const event = createEvent('MessageEvent', {
        source: 'agent',
        llm_message: { role: 'assistant', content: [{ type: 'text', text }] },
      }) as unknown as Json;
      conversations.get(id)?.push(event);
      for (const ws of sockets.get(id) ?? []) ws.send(JSON.stringify(event));
      return event;
    },
    dropSockets() {
      for (const live of sockets.values()) for (const ws of live) ws.terminate();
    },
    async close() {
      for (const live of sockets.values()) for (const ws of live) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

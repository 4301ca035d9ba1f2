import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { loadMcpSdk } from './load-mcp-sdk.js';
import { ResponseBackpressure } from './mcp-backpressure.js';
import { type ResumeCheck, SessionEventStore } from './mcp-event-store.js';
import type { McpConversationHost } from './mcp-host.js';
import { createMcpProtocolServer, type McpProtocolServerOptions } from './mcp-protocol-server.js';
import { McpSessionLimitError } from './mcp-session-limit-error.js';
import type { McpSessionLimits } from './mcp-session-limits.js';

/** A session no request has touched for this long, with no stream open, is ended (its client is gone). */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;
/** How many sessions may be live at once (the server config's `mcpMaxSessions` default). */
export const DEFAULT_MAX_SESSIONS = 100;

export interface McpSession {
  /** Who opened it (the caller's principal): a request of any other principal is answered as for no such session. */
  readonly principal: string | undefined;
  readonly transport: StreamableHTTPServerTransport;
  readonly store: SessionEventStore;
  readonly backpressure: ResponseBackpressure;
  openRequests: number;
  lastSeen: number;
}

/**
 * The MCP sessions of the streamable HTTP endpoint: one protocol server and transport per `Mcp-Session-Id`,
 * made by an `initialize` request and ended by `DELETE`, by idleness, or by the server's shutdown. Each has a
 * bounded replay buffer (resumable streams) and back-pressure on its responses. Sessions hold no conversation:
 * a client that goes away leaves every run going.
 */
export class McpSessions {
  readonly #sessions = new Map<string, McpSession>();
  readonly #host: McpConversationHost;
  readonly #options: McpProtocolServerOptions;
  readonly #idleMs: number;
  readonly #maxSessions: number;
  readonly #maxSessionsPerPrincipal: number;
  /** Sessions made whose `initialize` has not been answered yet: counted against the limits. */
  readonly #initializing = new Set<McpSession>();
  readonly #limits: McpSessionLimits;
  readonly #now: () => number;
  readonly #sweeper: NodeJS.Timeout;
  readonly #sweepEvery: number;
  #lastSweep: number;
  #closed = false;

  constructor(host: McpConversationHost, options: McpProtocolServerOptions, limits: McpSessionLimits = {}) {
    this.#host = host;
    this.#options = options;
    this.#limits = limits;
    this.#idleMs = limits.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.#maxSessions = limits.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.#maxSessionsPerPrincipal = limits.maxSessionsPerPrincipal ?? this.#maxSessions;
    this.#now = limits.now ?? Date.now;
    this.#sweepEvery = Math.min(this.#idleMs, 60_000);
    this.#lastSweep = this.#now();
    this.#sweeper = setInterval(() => void this.sweep(), this.#sweepEvery);
    this.#sweeper.unref();
  }

  get size(): number {
    return this.#sessions.size;
  }

  /**
   * The session `id` names, if `principal` opened it. A session id is a bearer of the session: one that leaked to a
   * caller with another key must not let it send into the session, take or resume its stream, or end it.
   */
  get(id: string, principal?: string): McpSession | undefined {
    const session = this.#sessions.get(id);
    return session?.principal === principal ? session : undefined;
  }

  /**
   * A session of `principal`, registered once the SDK has answered its `initialize`. With `maxSessions` live (or being
   * initialized), or `maxSessionsPerPrincipal` of them `principal`'s, the idle ones are ended first; if that made no
   * room, `McpSessionLimitError` naming the limit met: a new session never evicts a live one, another key's least.
   */
  async open(principal?: string): Promise<McpSession> {
    const sdk = await loadMcpSdk();
    if (this.#limitMet(principal) !== undefined) {
      await this.sweep();
      const refusal = this.#limitMet(principal);
      if (refusal !== undefined) throw refusal;
    }
    const backpressure = new ResponseBackpressure(this.#limits.maxBlockedBytes);
    const store = new SessionEventStore({
      maxBytes: this.#limits.maxStoredBytes,
      onStored: (bytes) => backpressure.queued(bytes),
    });
    const transport: StreamableHTTPServerTransport = new sdk.streamableHttp.StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: store,
      onsessioninitialized: (id) => {
        if (this.#closed) void transport.close();
        else this.#sessions.set(id, session);
      },
    });
    const session: McpSession = {
      principal,
      transport,
      store,
      backpressure,
      openRequests: 0,
      lastSeen: this.#now(),
    };
    this.#initializing.add(session);
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.#sessions.delete(transport.sessionId);
      store.clear();
    };
    try {
      await createMcpProtocolServer(sdk, this.#host, this.#options).connect(transport);
    } catch (error) {
      this.#initialized(session);
      throw error;
    }
    return session;
  }

  /** Its `initialize` was answered (or refused): the slot it held is now its registration's, or free. */
  #initialized(session: McpSession): void {
    this.#initializing.delete(session);
  }

  /**
   * The limit a new session of `principal` would pass, if any: its principal's share first (room the other keys
   * free would not help it). A session counts once, also while it is registered and its `initialize` still answered.
   */
  #limitMet(principal: string | undefined): McpSessionLimitError | undefined {
    const live = new Set([...this.#sessions.values(), ...this.#initializing]);
    const held = [...live].filter((session) => session.principal === principal).length;
    if (held >= this.#maxSessionsPerPrincipal) {
      return new McpSessionLimitError('principal', this.#maxSessionsPerPrincipal);
    }
    return live.size >= this.#maxSessions ? new McpSessionLimitError('server', this.#maxSessions) : undefined;
  }

  /** Whether a GET's `Last-Event-ID` can be resumed in `session`. */
  resumeCheck(session: McpSession, lastEventId: string): ResumeCheck {
    return session.store.check(lastEventId);
  }

  /** Hands one HTTP request to the session's transport; its response is watched until it closes. */
  async handle(session: McpSession, request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    session.openRequests += 1;
    session.lastSeen = this.#now();
    session.backpressure.track(response);
    response.once('close', () => {
      session.openRequests -= 1;
      session.lastSeen = this.#now();
    });
    try {
      await session.transport.handleRequest(request, response, body);
    } finally {
      // The SDK registers the session (onsessioninitialized) while handling its initialize, or refuses it.
      this.#initialized(session);
    }
  }

  /**
   * Sweeps when a sweep is due by the clock. Every request calls it, so the clock alone decides (the timer covers a
   * server no request reaches).
   */
  async sweepIfDue(): Promise<void> {
    if (this.#now() - this.#lastSweep >= this.#sweepEvery) await this.sweep();
  }

  /** Ends the sessions idle for longer than the limit (no request for that long and no stream open). */
  async sweep(): Promise<void> {
    const now = this.#now();
    this.#lastSweep = now;
    const idle = [...this.#sessions.values()].filter(
      (session) => session.openRequests === 0 && now - session.lastSeen >= this.#idleMs,
    );
    await Promise.allSettled(idle.map((session) => session.transport.close()));
  }

  /** Ends every session (their open streams close). */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweeper);
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(open.map((session) => session.transport.close()));
  }
}

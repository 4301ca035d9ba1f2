import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AnyEvent, Message } from '@x/events';
import { createMemoryFileStore, EventLog, type FileStore } from '@x/store';
import type { FastifyBaseLogger } from 'fastify';
import {
  attachEventSockets,
  type EventSocketHost,
  type EventSocketOptions,
  type SocketConversation,
} from '../../src/websocket/index.js';

/** A conversation of the fake host: a real EventLog on a memory store, plus hooks for the tests. */
export interface FakeConversation extends SocketConversation {
  readonly log: EventLog;
  /** The store under `log` (its events are in `<id>/events`), for a second writer such as another replica. */
  readonly store: FileStore;
  /** Messages received through `sendUserMessage`, in order. */
  readonly received: Message[];
  /** Publishes a published-only event to the current subscribers. */
  publish(event: AnyEvent): void;
  /** Makes `sendUserMessage` throw this error from now on. */
  failWith(error: Error | undefined): void;
  /** How many sockets listen for published-only events now (each live socket adds one, a closed one removes it). */
  publishedListeners(): number;
  /**
   * Runs `callback` once, right after the next socket subscribes to published-only events: after its full_state
   * snapshot and before its pull loop has sent any event of the log, so the test knows where the socket stands.
   */
  whenSubscribed(callback: () => void): void;
}

export interface LogRecord {
  level: string;
  args: unknown[];
}

export interface FakeSocketServer {
  /** `ws://127.0.0.1:PORT` */
  readonly wsUrl: string;
  readonly httpServer: Server;
  readonly logs: LogRecord[];
  addConversation(id: string): Promise<FakeConversation>;
  close(): Promise<void>;
}

/** A capturing logger with the FastifyBaseLogger shape. */
export function recordingLogger(records: LogRecord[]): FastifyBaseLogger {
  const at =
    (level: string) =>
    (...args: unknown[]): void => {
      records.push({ level, args });
    };
  const logger: FastifyBaseLogger = {
    level: 'debug',
    info: at('info'),
    error: at('error'),
    debug: at('debug'),
    fatal: at('fatal'),
    warn: at('warn'),
    trace: at('trace'),
    silent: () => undefined,
    child: () => logger,
  };
  return logger;
}

/** A plain `http.createServer()` on 127.0.0.1:0 with the socket layer over a fake `EventSocketHost`. */
export async function startFakeSocketServer(
  config: { apiKeys?: string[]; options?: EventSocketOptions } = {},
): Promise<FakeSocketServer> {
  const conversations = new Map<string, FakeConversation>();
  const logs: LogRecord[] = [];
  const host: EventSocketHost = {
    apiKeys: config.apiKeys ?? [],
    open: async (id) => conversations.get(id),
    logger: recordingLogger(logs),
  };
  const httpServer = createServer((_request, response) => {
    response.writeHead(404).end();
  });
  const sockets = attachEventSockets(httpServer, host, config.options);
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;

  return {
    wsUrl: `ws://127.0.0.1:${port}`,
    httpServer,
    logs,
    async addConversation(id) {
      const store = createMemoryFileStore();
      const log = await EventLog.open(store, { dir: `${id}/events`, pollIntervalMs: 50 });
      const listeners = new Set<(event: AnyEvent) => void>();
      const received: Message[] = [];
      const subscribedHooks: (() => void)[] = [];
      let failure: Error | undefined;
      const conversation: FakeConversation = {
        id,
        log,
        store,
        received,
        fullState: () => ({ id, execution_status: 'idle', events: log.length }),
        onPublished(listener) {
          listeners.add(listener);
          for (const hook of subscribedHooks.splice(0)) hook();
          return () => listeners.delete(listener);
        },
        async sendUserMessage(message) {
          if (failure !== undefined) throw failure;
          received.push(message);
        },
        publish(event) {
          for (const listener of listeners) listener(event);
        },
        failWith(error) {
          failure = error;
        },
        publishedListeners: () => listeners.size,
        whenSubscribed(callback) {
          subscribedHooks.push(callback);
        },
      };
      conversations.set(id, conversation);
      return conversation;
    },
    async close() {
      await sockets.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

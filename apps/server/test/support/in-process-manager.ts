import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryFileStore, type FileStore } from '@x/store';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach } from 'vitest';
import { type StartConversationRequest, startConversationRequestSchema } from '../../src/api/request-schemas.js';
import { ConversationManager, type ConversationManagerOptions } from '../../src/conversations/conversation-manager.js';
import type { ConversationMeta } from '../../src/conversations/conversation-meta.js';
import { indexedConversationStore } from '../../src/conversations/indexed-store.js';
import { MemoryConversationIndex } from '../../src/conversations/memory-conversation-index.js';
import { resolveServerSandboxing } from '../../src/sandboxing/server-sandboxing.js';

/** A logger that records `level: message` of every call. */
export function recordingLogger(): { logger: FastifyBaseLogger; lines: string[] } {
  const lines: string[] = [];
  const at =
    (level: string) =>
    (_fields: unknown, message?: string): void => {
      lines.push(`${level}: ${message}`);
    };
  const logger = {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    fatal: at('fatal'),
  } as unknown as FastifyBaseLogger;
  return { logger, lines };
}

export interface InProcessManager {
  manager: ConversationManager;
  store: FileStore;
  /** The manager's conversation index, wired as a single server wires it (what listings page through). */
  listing: MemoryConversationIndex;
  /** The manager's workspace root (a fresh temporary directory). */
  workspaceRoot: string;
  lines: string[];
  /** Moves the clock idle release reads. */
  advance(ms: number): void;
  /** Closes the manager and removes its workspace root. */
  stop(): Promise<void>;
}

/**
 * A ConversationManager in process (no HTTP): a memory store unless given, offline agents, a sandbox probe that
 * always succeeds (agents without tools never open one), and an injected clock for idle release.
 */
export async function startInProcessManager(
  options: {
    store?: FileStore;
    idleReleaseMs?: number;
    allowScriptedAgents?: boolean;
    /** Replicas' options (`shared`): the store is shared with other managers. */
    shared?: ConversationManagerOptions['shared'];
    /** What a single server does with the action a restart cut off (`ConversationManagerOptions`). */
    interruptedActions?: ConversationManagerOptions['interruptedActions'];
  } = {},
): Promise<InProcessManager> {
  const workspaceRoot = await mkdtemp(join(tmpdir(), 'x-in-process-manager-'));
  let now = 1_000_000;
  const store = options.store ?? createMemoryFileStore();
  const { logger, lines } = recordingLogger();
  // As `buildServer` has it on a single server; replicas list from their PostgreSQL table instead.
  const listing = new MemoryConversationIndex();
  const manager = await ConversationManager.start({
    store: options.shared === undefined ? indexedConversationStore(store, listing) : store,
    ...(options.shared === undefined ? { onMetaChange: (meta: ConversationMeta) => listing.follow(meta) } : {}),
    logger,
    apiKeys: [],
    persistenceDir: 'memory',
    workspaceRoot,
    idleReleaseMs: options.idleReleaseMs ?? 60_000,
    now: () => now,
    ...(options.allowScriptedAgents === undefined ? {} : { allowScriptedAgents: options.allowScriptedAgents }),
    ...(options.shared === undefined ? {} : { shared: options.shared }),
    ...(options.interruptedActions === undefined ? {} : { interruptedActions: options.interruptedActions }),
    sandboxing: await resolveServerSandboxing({
      unsandboxed: false,
      dataDir: join(workspaceRoot, 'data'),
      probe: async () => ({ available: true, bwrap: 'bwrap', version: 'test' }),
      warn: () => undefined,
    }),
  });
  listing.exclude((hex) => manager.isKnownDamaged(hex));
  await listing.load(store);
  return {
    manager,
    store,
    listing,
    workspaceRoot,
    lines,
    advance: (ms) => {
      now += ms;
    },
    stop: async () => {
      await manager.close(5_000);
      await rm(workspaceRoot, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/** A create request for an offline agent without tools, with the schema's defaults. */
export function offlineRequest(fields: Record<string, unknown> = {}): StartConversationRequest {
  return startConversationRequestSchema.parse({ agent: { llm: { model: 'offline' }, tools: [] }, ...fields });
}

/**
 * A `startInProcessManager` whose managers are all stopped after each test, newest first. Call it once at a test
 * file's top level (it registers the `afterEach`).
 */
export function managersStoppedAfterEach(): (
  options?: Parameters<typeof startInProcessManager>[0],
) => Promise<InProcessManager> {
  const started: InProcessManager[] = [];
  afterEach(async () => {
    for (const server of started.splice(0).reverse()) await server.stop();
  });
  return async (options = {}) => {
    const server = await startInProcessManager(options);
    started.push(server);
    return server;
  };
}

import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { SandboxOpener, SandboxSupport } from '@x/agent';
import { createLocalFileStore, createS3FileStore, type FileStore, UnsupportedLayoutError } from '@x/store';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { registerBudgetRoutes } from './api/budget-routes.js';
import { registerChainRoutes } from './api/chain-routes.js';
import { registerConversationRoutes } from './api/conversation-routes.js';
import { registerDecisionRoutes } from './api/decision-routes.js';
import { registerDocsRoutes } from './api/docs-routes.js';
import { installErrorHandlers } from './api/error-handler.js';
import { registerEventRoutes } from './api/event-routes.js';
import { registerFileRoutes } from './api/file-routes.js';
import { frameworkErrorHandler } from './api/framework-errors.js';
import { registerHealthRoutes } from './api/health-routes.js';
import { installJsonParser } from './api/json-parser.js';
import { registerOpenApi, registerOpenApiRoute } from './api/openapi.js';
import { faceOfRequest, sendRefusal } from './api/router-refusal.js';
import { serverExceptionText } from './api/server-exception-text.js';
import { registerSessionRoutes } from './api/session-routes.js';
import { registerTreeRoutes } from './api/tree-routes.js';
import { registerWorkspaceRoutes } from './api/workspace-routes.js';
import {
  type ServerConfig,
  type ServerConfigInput,
  serverConfigSchema,
  workspaceRootOf,
} from './config/server-config.js';
import type { ConversationListing } from './conversations/conversation-listing.js';
import { ConversationManager } from './conversations/conversation-manager.js';
import type { ConversationMeta } from './conversations/conversation-meta.js';
import { indexedConversationStore } from './conversations/indexed-store.js';
import { MemoryConversationIndex } from './conversations/memory-conversation-index.js';
import { openPostgresBackend, type SharedConversationBackend } from './conversations/postgres-backend.js';
import { startRecoverySweep } from './conversations/recovery-sweep.js';
import { resumeInterruptedRuns } from './conversations/resume-on-start.js';
import { segmentEventLogOpener } from './conversations/segment-event-logs.js';
import { loadSigningKey, registerA2aRoutes } from './faces/a2a/index.js';
import { registerAgUiRoutes } from './faces/ag-ui/index.js';
import { defaultMaxSessionsPerPrincipal, type McpSessionLimits, registerMcpRoutes } from './faces/mcp/index.js';
import { registerOpenAiRoutes } from './faces/openai/index.js';
import { registerGitRoutes } from './git/index.js';
import { registerCompareRoute } from './insights/compare-route.js';
import { registerEvalCaseRoute } from './insights/eval-case-route.js';
import { registerInsightRoutes } from './insights/insight-routes.js';
import { resolveServerSandboxing, type ServerSandboxing } from './sandboxing/server-sandboxing.js';
import {
  assertBindAllowed,
  assertDataDirOutsideWorkspaces,
  assertOutsideSystemDirectories,
  createHostOriginCheck,
  installHostOriginCheck,
  installRouteAuth,
  redactingLoggerOptions,
} from './security/index.js';
import { serverPathHider } from './security/server-path-hider.js';
import { installTraceContext, traceChildLoggerFactory, traceLogMixin } from './telemetry/index.js';
import { registerViewerRoutes } from './viewer/index.js';
import { attachEventSockets, type EventSocketOptions } from './websocket/index.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** One registered route, as Fastify's `onRoute` hook reports it. */
export interface RegisteredRoute {
  method: string;
  url: string;
  /** `schema.hide`: left out of the OpenAPI document (static pages such as /docs' assets). */
  hidden?: boolean;
}

export interface BuiltServer {
  app: FastifyInstance;
  manager: ConversationManager;
  config: ServerConfig;
  /** How processes are sandboxed here (probed at start-up). */
  sandboxing: ServerSandboxing;
  /** The absolute workspace root (`config.workspaceRoot` or `<dataDir>/workspaces`). */
  workspaceRoot: string;
  /** Every route registered on the app (HEAD routes included), collected with `onRoute`. */
  routes: readonly RegisteredRoute[];
  /** Whether the web viewer is served at `/` (its assets were built with the package). */
  viewer: boolean;
  /** Starts listening on `config.host`:`config.port`; resolves with the base URL. */
  listen(): Promise<{ url: string }>;
  /** Graceful stop: refuse new requests, pause runs, wait for them (bounded), checkpoint, close sockets and the server. */
  close(): Promise<void>;
}

export interface BuildServerOptions {
  /** Overrides the store built from the config (tests, embedding). */
  store?: FileStore;
  sockets?: EventSocketOptions;
  /** Where the log goes instead of stdout (tests read it back). */
  logStream?: { write(message: string): void };
  /** Whether this host can sandbox (default `detectSandboxSupport`, probed once at start-up). */
  sandboxProbe?: () => Promise<SandboxSupport>;
  /** Opens the sandboxes of conversations and of the shell route (default `openDefaultSandbox`). */
  openSandbox?: SandboxOpener;
  /** The clock idle release reads; given one, the server never sweeps by itself (call `manager.releaseIdle()`). */
  clock?: () => number;
  /** Bounds of the MCP face's HTTP sessions (idle expiry, replay buffer, back-pressure); `clock` measures idleness. */
  mcpSessions?: McpSessionLimits;
  /** How long a delete waits for a running conversation's interrupted run to end before cutting it off (10 s). */
  deleteRunTimeoutMs?: number;
  /** Where the git routes make their private directory of repository snapshots (the system's temporary directory). */
  gitTemporaryDirectory?: string;
}

function storeFor(config: ServerConfig): { store: FileStore; root: string } {
  if (config.s3 !== undefined) {
    const { bucket, prefix, region, endpoint, forcePathStyle } = config.s3;
    const store = createS3FileStore({
      bucket,
      prefix,
      forcePathStyle,
      ...(region === undefined ? {} : { region }),
      ...(endpoint === undefined ? {} : { endpoint }),
    });
    return { store, root: store.describe('') };
  }
  const root = join(config.dataDir, 'conversations');
  return { store: createLocalFileStore({ root, durability: 'fsync' }), root };
}

/**
 * The agent server: REST routes (§11.2/§11.3) and event WebSockets (§11.4) on one HTTP server, over
 * conversations stored on any FileStore. Nothing listens until `listen()`.
 */
export async function buildServer(
  input: ServerConfigInput = {},
  options: BuildServerOptions = {},
): Promise<BuiltServer> {
  const config = serverConfigSchema.parse(input);
  assertBindAllowed(config);
  await assertDataDirOutsideWorkspaces({ dataDir: config.dataDir, workspaceRoot: workspaceRootOf(config) });
  await assertOutsideSystemDirectories({
    dataDir: config.dataDir,
    workspaceRoot: workspaceRootOf(config),
    unsandboxed: config.unsandboxed,
  });
  const cardSigningKey = config.a2aSigningKey === undefined ? undefined : await loadSigningKey(config.a2aSigningKey);
  const eventSigningKey = config.signingKey === undefined ? undefined : await loadSigningKey(config.signingKey);
  let hostOriginCheck: ReturnType<typeof createHostOriginCheck> | undefined;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...redactingLoggerOptions(),
      mixin: traceLogMixin,
      ...(options.logStream === undefined ? {} : { stream: options.logStream }),
    },
    childLoggerFactory: traceChildLoggerFactory,
    bodyLimit: config.bodyLimit,
    // WebSocket upgrades are not Fastify requests: close() must not wait for idle keep-alive sockets either.
    forceCloseConnections: 'idle',
    frameworkErrors: frameworkErrorHandler(() => hostOriginCheck),
  });
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    const hidden = (route.schema as { hide?: unknown } | undefined)?.hide === true;
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, ...(hidden ? { hidden } : {}) });
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installJsonParser(app);
  installTraceContext(app);
  let conversationGone: (id: string) => boolean = () => false;
  let managerOfErrors: ConversationManager | undefined;
  installErrorHandlers(app, {
    conversationGone: (id) => conversationGone(id),
    describeException: serverExceptionText({
      config,
      workspaceRoot: workspaceRootOf(config),
      manager: () => managerOfErrors,
    }),
  });

  hostOriginCheck = createHostOriginCheck({
    bindHost: config.host,
    allowedHosts: config.allowedHosts,
    allowedOrigins: config.allowedOrigins,
    port: () => (app.server.address() as AddressInfo | null)?.port,
  });
  installHostOriginCheck(app, hostOriginCheck);
  let shuttingDown = false;
  app.addHook('onRequest', async (request, reply) => {
    if (shuttingDown && request.routeOptions.url?.startsWith('/api')) {
      return sendRefusal(reply, faceOfRequest(request), {
        status: 503,
        reason: 'shutting_down',
        message: 'Server is shutting down',
      });
    }
  });
  // Every route registered from here on needs the session key unless it says `config: { public: true }`.
  installRouteAuth(app, config.apiKeys, config.approvalDeciders);

  await registerOpenApi(app, version);

  const shared: SharedConversationBackend | undefined =
    options.store === undefined && config.databaseUrl !== undefined
      ? await openPostgresBackend(config.databaseUrl, {
          leaseTtlMs: config.leaseTtlMs,
          ...(config.interruptedActions === undefined ? {} : { interruptedActions: config.interruptedActions }),
        })
      : undefined;
  const own =
    options.store === undefined ? storeFor(config) : { store: options.store, root: options.store.describe('') };
  // Refused at start-up, not at a conversation's first append: S3 cannot append to an object.
  if (shared === undefined && config.eventLogLayout === 'segment' && own.store.openAppendFile === undefined) {
    throw new UnsupportedLayoutError({ layout: 'segment', location: own.root });
  }
  // One server indexes its conversations in memory (replicas share the PostgreSQL table): listing reads the
  // index, never every conversation.
  const localIndex = shared === undefined ? new MemoryConversationIndex() : undefined;
  const { store, root } =
    shared ?? (localIndex === undefined ? own : { ...own, store: indexedConversationStore(own.store, localIndex) });
  const sandboxing = await resolveServerSandboxing({
    unsandboxed: config.unsandboxed,
    dataDir: config.dataDir,
    workspaceRoot: workspaceRootOf(config),
    warn: (message) => app.log.warn(message),
    ...(options.sandboxProbe === undefined ? {} : { probe: options.sandboxProbe }),
    ...(options.openSandbox === undefined ? {} : { open: options.openSandbox }),
  });
  const workspaceRoot = workspaceRootOf(config);
  await mkdir(workspaceRoot, { recursive: true });
  const manager = await ConversationManager.start({
    sandboxing,
    ...(shared === undefined ? {} : { shared: shared.conversationOptions }),
    ...(shared === undefined && config.interruptedActions !== undefined
      ? { interruptedActions: config.interruptedActions }
      : {}),
    ...(shared === undefined && config.eventLogLayout === 'segment' ? { openEventLog: segmentEventLogOpener() } : {}),
    store,
    ...(localIndex === undefined ? {} : { onMetaChange: (meta: ConversationMeta) => localIndex.follow(meta) }),
    logger: app.log,
    ...(eventSigningKey === undefined ? {} : { signingKey: eventSigningKey }),
    idleReleaseMs: config.idleReleaseMs,
    maxOpenConversations: config.maxOpenConversations,
    ...(options.deleteRunTimeoutMs === undefined ? {} : { deleteRunTimeoutMs: options.deleteRunTimeoutMs }),
    ...(options.clock === undefined ? {} : { now: options.clock }),
    apiKeys: config.apiKeys,
    approvalDeciders: config.approvalDeciders,
    persistenceDir: root,
    workspaceRoot,
    secretKey: config.secretKey,
    serverApiKey: config.openaiApiKey,
    allowScriptedAgents: config.allowScriptedAgents,
  });
  conversationGone = (id) => manager.wasDeleted(id);
  managerOfErrors = manager;
  if (localIndex !== undefined) {
    localIndex.exclude((hex) => manager.isKnownDamaged(hex));
    await localIndex.load(store);
    app.log.info({ conversations: localIndex.size }, 'conversation index loaded');
    // A conversation meta.json calls `running` was cut off by the last stop (nothing runs yet): opening it
    // records the interruption and its real status, so a listing filtered by status is right from the start.
    if (config.interruptedActions === undefined) {
      for (const hex of localIndex.idsWithStatus('running')) {
        await manager.open(hex).catch((error: unknown) => {
          app.log.warn({ conversationId: hex, err: error }, 'a conversation left running could not be opened');
        });
      }
    }
  }
  // One server told what to do with interrupted actions resumes, at start-up, the runs a crash cut off.
  if (shared === undefined && config.interruptedActions !== undefined) await resumeInterruptedRuns(manager, app.log);
  // Replicas: runs whose owner died are resumed by whichever replica sweeps first, without waiting for a request.
  const recovery =
    shared !== undefined && config.recoveryIntervalMs > 0
      ? startRecoverySweep({
          manager,
          expiredLeases: () => shared.expiredLeases(),
          leases: shared.leases,
          intervalMs: config.recoveryIntervalMs,
          logger: app.log,
        })
      : undefined;

  registerHealthRoutes(app, { version, startedAt: Date.now(), isShuttingDown: () => shuttingDown });
  const decisionOptions = { apiKeys: config.apiKeys, approvalDeciders: config.approvalDeciders };
  // Exactly one of the two exists: replicas list from PostgreSQL, a single server from its index in memory.
  const listing = (shared?.listing ?? localIndex) as ConversationListing;
  registerConversationRoutes(app, manager, listing, decisionOptions);
  registerBudgetRoutes(app, manager);
  registerEventRoutes(app, manager);
  registerDecisionRoutes(app, manager, decisionOptions);
  registerTreeRoutes(app, manager, { workspaceRoot });
  registerSessionRoutes(app, manager);
  registerWorkspaceRoutes(app, { workspaceRoot, sandboxing });
  registerFileRoutes(app, { workspaceRoot, uploadLimit: config.uploadLimit });
  registerGitRoutes(app, {
    workspaceRoot,
    sandboxing,
    dataDir: config.dataDir,
    ...(options.gitTemporaryDirectory === undefined ? {} : { temporaryDirectory: options.gitTemporaryDirectory }),
  });
  registerChainRoutes(app, manager);
  registerInsightRoutes(app, manager, localIndex ?? shared?.forks);
  registerCompareRoute(app, manager);
  // Only local conversation directories can be named by an eval case (not S3 objects or PostgreSQL rows).
  const localConversationsDir =
    shared === undefined && options.store === undefined && config.s3 === undefined
      ? join(config.dataDir, 'conversations')
      : undefined;
  registerEvalCaseRoute(app, manager, localConversationsDir);
  registerAgUiRoutes(app, manager, { hidePaths: serverPathHider({ dataDir: config.dataDir, workspaceRoot }) });
  registerA2aRoutes(app, manager, {
    version,
    requiresKey: config.apiKeys.length > 0,
    defaultConversation: config.a2aConversation,
    signingKey: cardSigningKey,
  });
  registerOpenAiRoutes(app, manager, { models: config.openaiModels });
  registerMcpRoutes(app, manager, {
    version,
    listing,
    defaultConversation: config.mcpConversation,
    sessions: {
      maxSessions: config.mcpMaxSessions,
      maxSessionsPerPrincipal:
        config.mcpMaxSessionsPerPrincipal ??
        defaultMaxSessionsPerPrincipal(config.mcpMaxSessions, config.apiKeys.length > 0),
      ...(options.clock === undefined ? {} : { now: options.clock }),
      ...options.mcpSessions,
    },
  });
  const viewer = registerViewerRoutes(app);
  registerOpenApiRoute(app);
  await registerDocsRoutes(app);

  await app.ready();
  const sockets = attachEventSockets(app.server, manager, {
    ...options.sockets,
    checkRequest: (request) => hostOriginCheck(request.headers, request.url, request.rawHeaders),
  });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      shuttingDown = true;
      app.log.info('shutting down');
      await recovery?.stop();
      await manager.close(config.shutdownTimeoutMs);
      await sockets.close();
      // Runs are paused and sockets closed: a connection still busy now is a client that stopped reading a
      // download or sending an upload, which would hold shutdown (and SIGTERM) forever.
      app.server.closeAllConnections();
      await app.close();
      await shared?.close();
    })();
    return closing;
  };

  return {
    app,
    manager,
    config,
    sandboxing,
    workspaceRoot,
    routes,
    viewer,
    async listen() {
      await app.listen({ host: config.host, port: config.port });
      const address = app.server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return { url: `http://${host}:${address.port}` };
    },
    close,
  };
}

import type { ConversationOptions } from '@x/agent';
import type { FileStore } from '@x/store';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerSandboxing } from '../sandboxing/server-sandboxing.js';
import type { ManagedConversationDeps } from './managed-conversation-deps.js';

/** Options of `ConversationManager.start`. */
export interface ConversationManagerOptions {
  store: FileStore;
  /** Told of every conversation's meta change in memory (the single server's listing index). */
  onMetaChange?: ManagedConversationDeps['onMetaChange'];
  /** Signs every event of the conversations this server runs (an Ed25519 key; `signingKey` in the config). */
  signingKey?: ManagedConversationDeps['signingKey'];
  /**
   * Open conversations unused this long (ms) are released (closed; resumed from the store on their next use);
   * 0 keeps them open. Default 120,000.
   */
  idleReleaseMs?: number;
  /**
   * More open conversations than this and the least recently used idle ones are released, oldest first, even
   * before `idleReleaseMs` (those used within the last `idleReleaseMs / 10` are kept). Default 256.
   */
  maxOpenConversations?: number;
  /** The clock idle release reads; default `Date.now` (tests inject one and call `releaseIdle`). */
  now?: () => number;
  logger: FastifyBaseLogger;
  apiKeys: readonly string[];
  /** Who may decide on pending actions, whatever the route or face (`approvalDeciders`); everyone when unset. */
  approvalDeciders?: readonly string[] | undefined;
  /** Human-readable root of the store, reported as `persistence_dir`. */
  persistenceDir: string;
  /** Parent of the default per-conversation workspaces (`<root>/<id hex>`). */
  workspaceRoot: string;
  secretKey?: string | undefined;
  serverApiKey?: string | undefined;
  /** Accept `agent.x_offline_script` (scripted offline agents) in create requests: servers started for testing only. */
  allowScriptedAgents?: boolean;
  /** How long a delete waits for a running conversation's interrupted run to end before cutting it off. Default 10,000 ms. */
  deleteRunTimeoutMs?: number;
  /**
   * The store is shared with other replicas (PostgreSQL): conversations they create are found on first
   * use, and these options (events log, leases) go to every Conversation.
   */
  shared?: Pick<ConversationOptions, 'openEventLog' | 'leases' | 'interruptedActions'>;
  /** A single server: resume the runs a restart cut off, handling their in-flight action this way (else §11.5). */
  interruptedActions?: ConversationOptions['interruptedActions'];
  /** A single server: how conversations open their event logs (the configured layout); `shared` wins. */
  openEventLog?: ConversationOptions['openEventLog'];
  /** How conversations' processes are sandboxed (and whether tools may run at all). */
  sandboxing: ServerSandboxing;
}

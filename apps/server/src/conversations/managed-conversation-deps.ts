import type { ConversationOptions, SecretCipher } from '@x/agent';
import type { FileStore } from '@x/store';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerSandboxing } from '../sandboxing/server-sandboxing.js';
import type { ClientTools } from './client-tools.js';
import type { ConversationMeta } from './conversation-meta.js';

/** What every ManagedConversation of a server shares: its store, logger, keys, sandboxing and settings. */
export interface ManagedConversationDeps {
  store: FileStore;
  logger: FastifyBaseLogger;
  /** Where conversations live, for `persistence_dir` in responses. */
  persistenceDir: string;
  secretKey: string | undefined;
  cipher: SecretCipher | undefined;
  serverApiKey: string | undefined;
  /** Shared by replicas (PostgreSQL): the events log and the leases every run takes. */
  shared?: Pick<ConversationOptions, 'openEventLog' | 'leases' | 'interruptedActions'> | undefined;
  /** A single server: resume the runs a restart cut off, handling their in-flight action this way (else §11.5). */
  interruptedActions?: ConversationOptions['interruptedActions'];
  /** A single server: how conversations open their event logs (the configured layout); `shared` wins. */
  openEventLog?: ConversationOptions['openEventLog'] | undefined;
  /** How the conversation's processes are sandboxed. */
  sandboxing: ServerSandboxing;
  /**
   * The server's workspace root, where the conversations' working directories lie: a run is refused (409
   * `workspace_gone`) once it has been deleted. Unset (tests of parts): not checked.
   */
  workspaceRoot?: string | undefined;
  /**
   * Told of every change of a conversation's meta, as it happens in memory (before meta.json is written):
   * a single server's listing index follows live statuses, titles and update times with it.
   */
  onMetaChange?: ((meta: ConversationMeta) => void) | undefined;
  /**
   * Told when the conversation must stay in memory: it has just opened, or failed to open (its damage is
   * remembered). The manager holds closed conversations weakly, and an open one must never be collected.
   */
  hold?: ((conversation: { readonly hex: string }) => void) | undefined;
  /** The clock idle release reads (tests inject one); default `Date.now`. */
  now?: (() => number) | undefined;
  /** Signs every event the conversation appends (the server's `signingKey`). */
  signingKey?: ConversationOptions['signingKey'] | undefined;
  /** Who may decide on pending actions (the server's `approvalDeciders`); everyone when unset. */
  approvalDeciders?: readonly string[] | undefined;
  /** The tools each conversation's client runs (set by the AG-UI face for a run). */
  clientTools: ClientTools;
}

import type { AnyEvent } from '@x/events';
import type { ReconnectOptions, ResumeMode } from './stream-conversation-events.js';

/** Receives every event: persisted ones with their log index, published-only ones with `undefined`. */
export type RemoteConversationListener = (event: AnyEvent, index: number | undefined) => void;

/** Options of `RemoteConversation.attach` (and of `create`, which adds the start request fields). */
export interface RemoteAttachOptions {
  /** Session API key (`X-Session-API-Key`). */
  apiKey?: string;
  /** Called for every event received on the stream. */
  onEvent?: RemoteConversationListener;
  /** How the stream resumes after a drop (see `ResumeMode`). Default `auto`. */
  resume?: ResumeMode;
  /**
   * Index of the first persisted event the stream delivers, as `streamConversationEvents` takes it: a closed
   * conversation's `nextIndex` attaches again where it stopped. Default: live events only. Not inherited by a fork.
   */
  fromIndex?: number;
  /** Stream reconnection; default 1 s doubling to 30 s. */
  reconnect?: boolean | ReconnectOptions;
  /** How long a (re)connection may take to deliver its first full_state snapshot. Default 30,000 ms. */
  readyTimeoutMs?: number;
  /** REST polling interval while `run()` waits. Default 2,000 ms. */
  pollIntervalMs?: number;
  /** Overall limit of `run()`. Default 3,600,000 ms (the reference's). */
  runTimeoutMs?: number;
  /**
   * How long `run()` trusts a terminal status seen by REST polling without the post-run snapshot
   * arriving on the stream (e.g. it was dropped for a slow connection). Default 30,000 ms.
   */
  snapshotGraceMs?: number;
  /** With `attach`: the agent to create the conversation with when the server does not know the id. */
  agent?: Record<string, unknown>;
}

/** Options of `RemoteConversation.create`: the StartConversationRequest fields in camelCase. */
export interface RemoteCreateOptions extends RemoteAttachOptions {
  /** The Agent JSON of the start request (`{"llm": {...}, "tools": [...]}`). */
  agent?: Record<string, unknown>;
  /** Working directory on the server (`workspace.working_dir`). */
  workspace?: string;
  /** E.g. `{ kind: 'AlwaysConfirm' }`. Default NeverConfirm. */
  confirmationPolicy?: { kind: string } & Record<string, unknown>;
  maxIterations?: number;
  /** Conversation id to use (hyphenated or hex UUID). */
  id?: string;
  /** Conversation secrets (start request `secrets`): offered to tools by name, masked in output. */
  secrets?: Readonly<Record<string, RemoteSecretInput>>;
  /** Anything else of the start request, sent as is (snake_case), e.g. `{ tags: {...} }`. */
  extra?: Record<string, unknown>;
}

/** How a remote run ended. */
export interface RemoteRunResult {
  status: string;
}

/** A secret's value for `secrets` / `updateSecrets`. */
export type RemoteSecretInput = string | { value?: string | null; description?: string | null };

/** Options of `RemoteConversation.fork` (the reference's ForkConversationRequest, camelCase). */
export interface RemoteForkOptions {
  /** Id of the fork; the server picks one by default. */
  id?: string;
  title?: string;
  tags?: Record<string, string>;
  /** Start with empty stats (default true). */
  resetMetrics?: boolean;
  /** Copy only the branch from the root to this event, which becomes the fork's HEAD. */
  fromEventId?: string;
  /** Options of the fork's RemoteConversation (default: this one's, without its listener). */
  attach?: RemoteAttachOptions;
}

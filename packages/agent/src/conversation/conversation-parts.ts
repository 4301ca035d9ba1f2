import type { ActionEvent, AnyEvent, View } from '@x/events';
import type { EventLogLike, FileStore } from '@x/store';
import type { Agent } from '../agent/agent.js';
import { ConversationBudget } from '../budgets/index.js';
import { WorkspaceCheckpoints } from '../checkpoints/workspace-checkpoints.js';
import type { AgentRoster } from '../handoff/agent-roster.js';
import type { LLM } from '../llm/llm.js';
import type { ConversationSandbox } from '../sandboxing/conversation-sandbox.js';
import type { SecretCipher } from '../secrets/secret-cipher.js';
import type { SecretRegistry } from '../secrets/secret-registry.js';
import { ConversationSession } from '../session/conversation-session.js';
import type { ConversationState } from '../state/conversation-state.js';
import { StuckDetector } from '../stuck/stuck-detector.js';
import { Branches } from './branches.js';
import { ConversationEvents } from './conversation-events.js';
import type { ConversationInit } from './conversation-init.js';
import type { ConversationOptions } from './conversation-options.js';
import { ConversationClosedError } from './errors/conversation-closed-error.js';
import { EventFold } from './event-fold.js';
import { ConversationExtensions } from './extensions.js';
import { HookBlocks } from './hook-blocks.js';
import { writeMissingSystemPrompt } from './opening-system-prompt.js';
import { RunOwnership } from './ownership/run-ownership.js';
import { defaultPersistenceDir } from './persistence-layout.js';
import { RunControl } from './run-control.js';
import { SecuritySettings } from './security-settings.js';
import { writeBaseState } from './write-base-state.js';

/**
 * The public face of a conversation its parts call back into (a `Conversation` is one; declared here so that no
 * part imports the class that composes them).
 */
export interface PartsOwner {
  readonly id: string;
  readonly agent: Agent;
  readonly workspace: string;
  readonly store: FileStore;
  readonly directory: string;
  readonly log: EventLogLike;
  readonly location: string;
  readonly state: ConversationState;
  readonly isRunning: boolean;
  checkpoint(): Promise<void>;
  view(): Promise<View>;
  pendingActions(): Promise<ActionEvent[]>;
  activeBranch(): Promise<AnyEvent[]>;
  catchUp(): Promise<void>;
  blockAction(actionId: string, reason: string): Promise<void>;
  blockMessage(messageId: string, reason: string): Promise<void>;
}

/**
 * Whether the conversation was closed: every call but the reads refuses then. From the moment closing begins, a
 * new run is refused (closing waits only for the run already going, then closes the log and the sandbox), and a
 * second close waits for the first instead of closing again.
 */
export class OpenGuard {
  readonly #id: string;
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(id: string) {
    this.#id = id;
  }

  close(): void {
    this.#closed = true;
  }

  /** Runs `close` once (concurrent calls share it; a failed one may be tried again); nothing once closed. */
  closeOnce(close: () => Promise<void>): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closing ??= close().catch((error: unknown) => {
      this.#closing = undefined;
      throw error;
    });
    return this.#closing;
  }

  assertOpen(): void {
    if (this.#closed) throw new ConversationClosedError(this.#id);
  }

  /** Refuses a new run once the conversation is closed or closing. */
  assertAcceptsRuns(): void {
    if (this.#closed || this.#closing !== undefined) throw new ConversationClosedError(this.#id);
  }
}

/** The collaborators a `Conversation` composes, each given only what it needs of the others. */
export interface ConversationParts {
  readonly options: ConversationOptions;
  readonly secrets: SecretRegistry;
  readonly cipher: SecretCipher | undefined;
  readonly security: SecuritySettings;
  readonly stuck: StuckDetector | undefined;
  readonly persistenceDir: string;
  /** The base_state.json the conversation was opened from (undefined for a new one): see `buildBaseState`. */
  readonly recordedBaseState: Readonly<Record<string, unknown>> | undefined;
  /** Where every process started for this conversation runs (terminal, hooks, MCP stdio servers). */
  readonly sandbox: ConversationSandbox;
  readonly fold: EventFold;
  readonly ownership: RunOwnership;
  readonly events: ConversationEvents;
  readonly runs: RunControl;
  readonly branches: Branches;
  readonly extensions: ConversationExtensions;
  readonly blocks: HookBlocks;
  readonly lifecycle: OpenGuard;
  /** The workspace's checkpoints (`workspaceCheckpoints`; inert when off). */
  readonly checkpoints: WorkspaceCheckpoints;
  /** The model the conversation switched to (`switchLLM`): the next steps call it instead of the agent's. */
  readonly model: { switched?: LLM };
  /**
   * The usage ids of models the conversation called on the side and recorded the spending of (`generateTitle`'s
   * `llm`), in this process: its own, which a tool may not record under (`recordUsage`).
   */
  readonly sideUsageIds: Set<string>;
  /** The session state and artifacts (orxhestra's `state_delta`, `artifact_delta`). */
  readonly session: ConversationSession;
  /** Its money budgets, asked before every model call. */
  readonly budget: ConversationBudget;
  /** Its agents and which one is in control (`ConversationOptions.agents`, `transfer_to_agent`). */
  readonly roster: AgentRoster;
}

export function createConversationParts(owner: PartsOwner, init: ConversationInit): ConversationParts {
  const { options } = init;
  const fold = new EventFold(init.log, init.state);
  const ownership = new RunOwnership({
    conversationId: owner.id,
    store: init.store,
    directory: owner.directory,
    leases: options.leases,
    leaseTtlMs: options.leaseTtlMs,
    leaseWaitMs: options.leaseWaitMs,
    fencesAppends: () => init.log.fencesAppends === true,
    running: () => owner.isRunning,
  });
  const events = new ConversationEvents({
    log: init.log,
    fold,
    ownership,
    mask: (text) => init.secrets.mask(text),
    conversationId: owner.id,
    // The parts exist by the time anything is appended.
    ...(init.checkpointBeforeAppend === true ? { beforeFirstAppend: () => writeBaseState(owner, parts) } : {}),
  });
  if (options.onEvent !== undefined) events.subscribe(options.onEvent);
  const lifecycle = new OpenGuard(owner.id);
  const host = {
    id: owner.id,
    // The agent in control, read when used (it changes with `transfer_to_agent`).
    get agent() {
      return owner.agent;
    },
    workspace: owner.workspace,
    log: init.log,
    fold,
    sandbox: init.sandbox,
    state: () => fold.state,
    settled: () => events.settled(),
    idle: () => events.idle,
    emit: (event: AnyEvent) => events.emit(event),
    assertOpen: () => lifecycle.assertOpen(),
    checkpoint: () => owner.checkpoint(),
    checkpointUnlessRunning: async () => {
      if (!owner.isRunning) await owner.checkpoint();
    },
    mask: (text: string) => init.secrets.mask(text),
    lookup: (id: string) => init.log.getById(id).catch(() => undefined),
    blockAction: (id: string, reason: string) => owner.blockAction(id, reason),
    blockMessage: (id: string, reason: string) => owner.blockMessage(id, reason),
  };
  const model: { switched?: LLM } = {};
  const checkpoints = new WorkspaceCheckpoints({
    id: owner.id,
    store: init.store,
    directory: owner.directory,
    workspace: owner.workspace,
    log: init.log,
    enabled: options.workspaceCheckpoints === true,
    head: () => fold.leafEventId,
    emit: (event) => events.emit(event),
  });
  const parts: ConversationParts = {
    options,
    secrets: init.secrets,
    cipher: init.cipher,
    // `null` is the reference's None (`'none'`), not a missing setting: only `undefined` takes the default.
    security: new SecuritySettings(options.securityAnalyzer === undefined ? 'llm' : options.securityAnalyzer),
    stuck:
      options.stuckDetection === false
        ? undefined
        : new StuckDetector(typeof options.stuckDetection === 'object' ? options.stuckDetection : {}),
    persistenceDir: options.persistenceDir ?? defaultPersistenceDir(),
    sideUsageIds: new Set(),
    recordedBaseState: init.recordedBaseState,
    sandbox: init.sandbox,
    fold,
    ownership,
    events,
    runs: new RunControl(),
    // Not `{ ...host }`: spreading would read the `agent` getter now, before the conversation has its parts.
    branches: new Branches(
      Object.defineProperties(Object.create(null), {
        ...Object.getOwnPropertyDescriptors(host),
        restore: { value: (eventId: string | null) => checkpoints.restoreAt(eventId) },
      }),
    ),
    extensions: new ConversationExtensions(host, options, {
      ...(init.checkSystemPrompt === true
        ? {
            beforeStart: () =>
              writeMissingSystemPrompt(
                init.log,
                () => owner.agent.systemPromptEvent(init.roster.toolsFor(owner.agent)),
                (event) => events.emit(event),
              ),
          }
        : {}),
      activatedSkills: recordedStrings(init.recordedBaseState?.activated_knowledge_skills),
    }),
    blocks: new HookBlocks(host),
    lifecycle,
    checkpoints,
    model,
    session: new ConversationSession({
      store: init.store,
      directory: owner.directory,
      get state() {
        return fold.state;
      },
      emit: (event) => events.emit(event),
    }),
    roster: init.roster,
    budget: new ConversationBudget({
      store: init.store,
      directory: owner.directory,
      write: (path, data) => ownership.write(init.store, path, data),
      // The model the next step calls: the one switched to (`switchLLM`), else the agent's.
      llm: () => model.switched ?? owner.agent.llm,
      stats: () => events.latestStats(),
      hasPendingActions: () => fold.state.pending_actions.length > 0,
      emit: (event) => events.emit(event),
      setStatus: (status) => events.setStatus(status),
    }),
  };
  return parts;
}

/** A recorded list of names (the strings of it; nothing when it is not a list). */
function recordedStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

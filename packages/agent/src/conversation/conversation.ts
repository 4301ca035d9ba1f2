import { type ActionEvent, type AnyEvent, createEvent, type Message, type Observation, type View } from '@x/events';
import type { EventLogLike, FileStore } from '@x/store';
import type { Agent } from '../agent/agent.js';
import type { ActionDecision, DecisionContext, DecisionRecord } from '../approvals/decision.js';
import type { BudgetInput, BudgetStatus } from '../budgets/index.js';
import type { WorkspaceCheckpoints } from '../checkpoints/workspace-checkpoints.js';
import { type ConfirmationPolicyInput, parseConfirmationPolicy } from '../confirmation/confirmation-policy.js';
import type { LLM, LLMResponse } from '../llm/llm.js';
import type { ConversationStatsSnapshot } from '../llm/metrics.js';
import type { SandboxPolicy } from '../sandbox/sandbox-policy.js';
import type { SecretInput } from '../secrets/secret-registry.js';
import type { ConversationSession } from '../session/conversation-session.js';
import type { ConversationState } from '../state/conversation-state.js';
import type { StuckDetector } from '../stuck/stuck-detector.js';
import type { SecurityAnalyzerInput } from './analyzer-setting.js';
import { budgetOption } from './budget-option.js';
import {
  checkpointConversation,
  conversationRunHost,
  navigateConversation,
  pauseConversation,
  rejectConversationActions,
  runConversation,
  setConversationBudget,
} from './conversation-hosts.js';
import { type ConversationInit, initNewConversation, initResumedConversation } from './conversation-init.js';
import { closeConversation, endConversationProcesses, forkConversation } from './conversation-lifecycle.js';
import type {
  ConversationListener,
  ConversationOptions,
  SendMessageOptions as MessageOptions,
  RunOptions,
  RunResult,
} from './conversation-options.js';
import { type ConversationParts, createConversationParts } from './conversation-parts.js';
import { conversationToolRunner, recordSideResponse } from './conversation-step-context.js';
import { decideConversationActions } from './decide-conversation-actions.js';
import { type EventEdit, editConversationEvent } from './edit-event.js';
import { ConversationAlreadyRunningError } from './errors/conversation-already-running-error.js';
import { executeTool } from './execute-tool.js';
import type { ForkOptions } from './fork-options.js';
import { openConversation } from './open-conversation.js';
import { sendConversationMessage } from './send-message.js';
import { askAgent, generateTitle } from './side-questions.js';
import { type StateChangeListener, subscribeStateChanges } from './state-changes.js';

/**
 * A persistent, event-sourced conversation. Every event is appended to the EventLog before anyone sees
 * it, the state is a fold over the events (`applyEvent`), and base_state.json is a constant-size
 * checkpoint of that fold, so a step costs O(1) in the length of the history and a process killed at
 * any point resumes from its directory. Its concerns are parts of their own (`ConversationParts`): the fold,
 * the appends, the run lease, the run and its interrupt, the branches, the extensions, the hooks' blocks.
 */
export class Conversation {
  readonly id: string;
  readonly workspace: string;
  readonly store: FileStore;
  /** Its directory in the store: `<id as 32 hex>`, or the one a resume read from (a copy keeps its name). */
  readonly directory: string;
  readonly log: EventLogLike;
  /** The workspace checkpoints (`workspaceCheckpoints`): capture, look up, restore, warnings. */
  readonly checkpoints: WorkspaceCheckpoints;

  readonly #parts: ConversationParts;

  private constructor(init: ConversationInit) {
    this.id = init.state.id;
    this.workspace = init.sandbox.workspace;
    this.store = init.store;
    this.directory = init.directory;
    this.log = init.log;
    this.#parts = createConversationParts(this, init);
    this.checkpoints = this.#parts.checkpoints;
  }

  /** Starts a new conversation (its first event is the agent's system prompt). */
  static async create(options: ConversationOptions): Promise<Conversation> {
    // A bad budget is refused before anything is written (InvalidBudgetError).
    const budget = budgetOption(options);
    const init = await initNewConversation(options);
    const conversation = new Conversation(init);
    if (init.signing !== undefined) init.signing.inControl = () => conversation.agent;
    if (budget !== undefined) await setConversationBudget(conversation.#parts, budget);
    await options.agent.startExtensions(conversation.workspace, init.sandbox);
    await conversation.#parts.events.emit(options.agent.systemPromptEvent(init.roster.toolsFor(options.agent)));
    await conversation.#parts.extensions.start();
    await conversation.checkpoint();
    return conversation;
  }

  /** Reopens a persisted conversation (the reference's too): base_state.json plus the events after it. */
  static async resume(id: string, options: Omit<ConversationOptions, 'id'>): Promise<Conversation> {
    const budget = budgetOption(options);
    const { init, historyEnd, eventCount } = await initResumedConversation(id, options);
    const conversation = new Conversation(init);
    if (init.signing !== undefined) init.signing.inControl = () => conversation.agent;
    if (budget !== undefined) await setConversationBudget(conversation.#parts, budget);
    eventCount.current = () => conversation.state.event_count;
    // Stuck detection's recent events are read when a run starts: opening (to inspect, message, query) reads none.
    conversation.#parts.fold.deferHistory(historyEnd);
    await conversation.#parts.checkpoints.resumed();
    return conversation;
  }

  /** Resumes the conversation `options.id` when it exists, else creates it. */
  static open(options: ConversationOptions): Promise<Conversation> {
    return openConversation(options, { create: Conversation.create, resume: Conversation.resume });
  }

  /** The agent in control: the one created with, or the one `transfer_to_agent` passed control to (`agents`). */
  get agent(): Agent {
    return this.#parts.roster.active(this.state);
  }

  /** Every tool name a model of this conversation may be offered: each agent's own, and the ones it adds. */
  get toolNames(): ReadonlySet<string> {
    return this.#parts.roster.toolNames();
  }

  /** The derived state after the last event. */
  get state(): ConversationState {
    return this.#parts.fold.state;
  }

  /** Accumulated usage and cost per LLM usage id (reference `conversation_stats`), folded from the log. */
  get stats(): ConversationStatsSnapshot {
    return this.state.stats;
  }

  /** The per-run iteration limit (reference `max_iteration_per_run`). */
  get maxIterationsPerRun(): number {
    return this.state.max_iterations;
  }

  /** The stuck detector the run loop consults (reference `stuck_detector`); undefined when detection is off. */
  get stuckDetector(): StuckDetector | undefined {
    return this.#parts.stuck;
  }

  /** The session state and versioned artifacts (orxhestra's `state_delta`, `artifact_delta`). */
  get session(): ConversationSession {
    return this.#parts.session;
  }

  /** The model the next step calls: the one `switchLLM` set, else the agent's. */
  get llm(): LLM {
    return this.#parts.model.switched ?? this.agent.llm;
  }

  /** The sandbox policy its tools, hooks and MCP stdio servers run under (recorded in x_sandbox_policy.json). */
  get sandboxPolicy(): SandboxPolicy {
    return this.#parts.sandbox.policy;
  }

  /** Human-readable location of the conversation's files. */
  get location(): string {
    return this.store.describe(this.directory);
  }

  /** Whether a `run` is in progress in this process. */
  get isRunning(): boolean {
    return this.#parts.runs.isRunning;
  }

  /** Calls `listener` for every later event. Returns the unsubscribe function. */
  subscribe(listener: ConversationListener): () => void {
    return this.#parts.events.subscribe(listener);
  }

  /** Calls `listener` for state changes only, with the state after each (see `subscribeStateChanges`). */
  onStateChange(listener: StateChangeListener): () => void {
    return subscribeStateChanges(this, listener);
  }

  /** Runs one tool outside the loop (reference `execute_tool`), recorded (see execute-tool.ts); not during a run. */
  async executeTool(toolName: string, args: Readonly<Record<string, unknown>> = {}): Promise<Observation> {
    this.#assertOpen();
    if (this.isRunning) throw new ConversationAlreadyRunningError(this.id);
    const observation = await executeTool(conversationToolRunner(this, this.#parts), toolName, args);
    await this.#checkpointUnlessRunning();
    return observation;
  }

  /** Switches the model (reference `switch_llm`): the next step calls `llm`; recorded (see the README). */
  async switchLLM(llm: LLM): Promise<void> {
    this.#assertOpen();
    this.#parts.model.switched = llm;
    await this.#recordStateUpdate('llm', { model: llm.model, usage_id: llm.usageId });
  }

  /** Adds a user message (`extendedContent`: more text for the model). A finished or stuck one becomes idle. */
  async sendMessage(message: string | Message, options: MessageOptions = {}): Promise<void> {
    await sendConversationMessage(this, this.#parts, message, options);
  }

  /** Runs the agent until it stops; a failure is recorded and thrown (`ConversationRunError`). One run at a time. */
  async run(options: RunOptions = {}): Promise<RunResult> {
    this.#parts.lifecycle.assertAcceptsRuns();
    return runConversation(this, this.#parts, options);
  }

  /** Interrupts the run now (reference `interrupt`): aborts the call and tools, records it, `paused`; else pauses. */
  async interrupt(): Promise<void> {
    this.#assertOpen();
    if (!this.#parts.runs.abort()) return this.pause();
    await this.#parts.runs.ended();
  }

  /** Pauses between steps: records a PauseEvent once; no effect when waiting, finished, errored or stuck. */
  async pause(): Promise<void> {
    this.#assertOpen();
    await pauseConversation(this, this.#parts);
  }

  /** Denies every pending action (UserRejectObservations, recorded as `principal`'s denials); waiting → idle. */
  async rejectPendingActions(reason = 'User rejected the action', options: { principal?: string } = {}): Promise<void> {
    await rejectConversationActions(this, this.#parts, reason, options.principal);
  }

  /** Sets the money budget (dollars or `{ maxUsd, allowUnknownCost }`; null removes it), in `x_budget.json`. */
  async setBudget(budget: BudgetInput | null): Promise<void> {
    this.#assertOpen();
    await setConversationBudget(this.#parts, budget, 'setBudget');
  }

  /** The conversation's budget, what it spent (from the log), unknown costs, and the last budget stop. */
  async budgetStatus(): Promise<BudgetStatus> {
    return this.#parts.budget.status();
  }

  /** Decides pending actions one by one (approve, edit, deny, substitute), recorded once with who and when. */
  async decide(decisions: readonly ActionDecision[], context: DecisionContext): Promise<DecisionRecord[]> {
    return decideConversationActions(this, this.#parts, decisions, context);
  }

  /** Switches the confirmation policy; recorded in the log and persisted. */
  async setConfirmationPolicy(policy: ConfirmationPolicyInput): Promise<void> {
    this.#assertOpen();
    await this.#recordStateUpdate('confirmation_policy', parseConfirmationPolicy(policy));
  }

  /** Forces a condensation: a CondensationRequest and one step (`CondenserUnavailableError` without a condenser). */
  async condense(): Promise<void> {
    const { condense } = await import('./condense.js');
    await condense(conversationRunHost(this, this.#parts));
  }

  /** Answers a side question from the conversation's context. Records only the call's metrics. */
  async askAgent(question: string): Promise<string> {
    this.#assertOpen();
    return askAgent({ llm: this.agent.llm, view: await this.view(), question, recordResponse: this.#recorder });
  }

  /** Makes (and records) a title from the first user message. */
  async generateTitle(options: { maxLength?: number; llm?: LLM } = {}): Promise<string> {
    this.#assertOpen();
    const title = await generateTitle({
      conversationId: this.id,
      log: this.log,
      llm: options.llm ?? this.agent.llm,
      ...options,
      recordResponse: this.#recorder,
    });
    await this.#recordStateUpdate('title', title);
    return title;
  }

  /** The executable actions that have no result yet, oldest first (reference §8.4). */
  async pendingActions(): Promise<ActionEvent[]> {
    // The usual case at the start of a step: nothing to look up.
    if (this.state.pending_actions.length === 0) return [];
    const events = await Promise.all(this.state.pending_actions.map((pending) => this.log.getById(pending.action_id)));
    return events.filter((event): event is ActionEvent => event.kind === 'ActionEvent');
  }

  /** The LLM-visible view of the active branch (reference §7.7), kept up to date as events are emitted. */
  async view(): Promise<View> {
    return this.#parts.fold.view(this.store, this.directory);
  }

  /** HEAD of the conversation tree: the event the next one will answer; undefined for an empty HEAD. */
  get leafEventId(): string | undefined {
    return this.#parts.fold.leafEventId;
  }

  /** The events on the active branch, root first (abandoned branches stay in `events()`); reads the whole log. */
  async activeBranch(): Promise<AnyEvent[]> {
    return this.#parts.branches.activeBranch();
  }

  /** Moves HEAD to `eventId` (reference `navigate_to`; `null`: a new root); later events form a sibling branch. */
  async navigateTo(eventId: string | null): Promise<void> {
    await navigateConversation(this, this.#parts, eventId);
  }

  /** A new branch whose copy of `eventId` has `content` (new id, same parent), HEAD at it; see `editConversationEvent`. */
  async editEvent(eventId: string, content: EventEdit): Promise<AnyEvent> {
    return editConversationEvent(this, this.#parts, eventId, content);
  }

  /** A new conversation with this one's history (reference `fork`); `agent`/`workspace` for a counterfactual. */
  async fork(options: ForkOptions = {}): Promise<Conversation> {
    return forkConversation(this, this.#parts, options, {
      open: (init) => new Conversation(init),
      emit: (conversation, event) => conversation.#parts.events.emit(event),
    });
  }

  /** Adds or replaces secrets (reference `update_secrets`): masked in output, never in events (see the README). */
  async updateSecrets(secrets: Readonly<Record<string, SecretInput>>): Promise<void> {
    this.#assertOpen();
    this.#parts.secrets.update(secrets);
    await this.checkpoint();
  }

  /** `text` with the secrets' values masked as tool output is: for a host's own text (an error a client reads). */
  maskSecrets(text: string): string {
    return this.#parts.secrets.mask(text);
  }

  /** Sets the security analyzer (reference `set_security_analyzer`): `'llm'`, a function, or `'none'`/`null`. */
  async setSecurityAnalyzer(analyzer: SecurityAnalyzerInput): Promise<void> {
    this.#assertOpen();
    this.#parts.security.set(analyzer);
    await this.checkpoint();
  }

  /** Whether the confirmation policy can ask at all (it is not NeverConfirm). */
  get confirmationPolicyActive(): boolean {
    return this.state.confirmation_policy.kind !== 'NeverConfirm';
  }

  /** Confirmation mode: a security analyzer is set and the confirmation policy is active (reference). */
  get isConfirmationModeActive(): boolean {
    return this.#parts.security.analyzer !== undefined && this.confirmationPolicyActive;
  }

  /** A hook blocked action `actionId` (reference `block_action`); persisted. */
  async blockAction(actionId: string, reason: string): Promise<void> {
    await this.#parts.blocks.block('blocked_actions', actionId, reason);
  }

  /** Removes and returns why a hook blocked `actionId` (undefined: it was not). */
  async popBlockedAction(actionId: string): Promise<string | undefined> {
    return this.#parts.blocks.pop('blocked_actions', actionId);
  }

  /** Records that a hook blocked the user message `messageId` (reference `block_message`); persisted. */
  async blockMessage(messageId: string, reason: string): Promise<void> {
    await this.#parts.blocks.block('blocked_messages', messageId, reason);
  }

  /** Removes and returns the reason a hook blocked `messageId`, undefined if it was not blocked. */
  async popBlockedMessage(messageId: string): Promise<string | undefined> {
    return this.#parts.blocks.pop('blocked_messages', messageId);
  }

  /** Writes base_state.json: the constant-size checkpoint of the derived state. */
  async checkpoint(): Promise<void> {
    await checkpointConversation(this, this.#parts);
  }

  /** Waits for a run in progress, checkpoints, and refuses further use. */
  async close(): Promise<void> {
    await closeConversation(this, this.#parts);
  }

  /** Ends every process started for the conversation, writing nothing (see `endConversationProcesses`). */
  async endProcesses(): Promise<void> {
    await endConversationProcesses(this, this.#parts);
  }

  /** The events of the conversation so far, oldest first (read lazily from the log). */
  events(from = 0): AsyncIterable<AnyEvent> {
    return this.log.iterate(from);
  }

  /** Folds in what other processes or replicas appended since this instance last looked (shared readers). */
  async catchUp(): Promise<void> {
    this.#assertOpen();
    await this.#parts.events.catchUp();
  }

  #assertOpen(): void {
    this.#parts.lifecycle.assertOpen();
  }

  /** Records a state update, and writes base_state.json unless a run does. */
  async #recordStateUpdate(key: string, value: unknown): Promise<void> {
    await this.#parts.events.emit(createEvent('ConversationStateUpdateEvent', { key, value }));
    await this.#checkpointUnlessRunning();
  }

  async #checkpointUnlessRunning(): Promise<void> {
    if (!this.isRunning) await this.checkpoint();
  }

  readonly #recorder = (llm: LLM, response: LLMResponse): Promise<void> =>
    recordSideResponse(this.#parts, llm, response);
}

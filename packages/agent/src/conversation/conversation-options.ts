import type { KeyObject } from 'node:crypto';
import type { AnyEvent, TextContent } from '@x/events';
import type { EventLogLike, FileStore, Leases } from '@x/store';
import type { Agent } from '../agent/agent.js';
import type { ApprovalRules } from '../approvals/approval-rules.js';
import type { BudgetInput } from '../budgets/index.js';
import type { ConfirmationPolicyInput } from '../confirmation/confirmation-policy.js';
import type { SecurityAnalyzer } from '../confirmation/security-analyzer.js';
import type { HookConfig, HookConfigInput } from '../hooks/hook-config.js';
import type { SandboxPolicyInput } from '../sandbox/sandbox-policy.js';
import type { SandboxOpener } from '../sandboxing/sandbox-opener.js';
import type { SecretInput, SecretRegistry } from '../secrets/secret-registry.js';
import type { ExecutionStatus } from '../state/execution-status.js';
import type { StuckThresholdsInput } from '../stuck/stuck-thresholds.js';
import type { Tool } from '../tools/tool.js';

/** Receives every event: persisted ones with their log index, published-only ones (deltas) without. */
export type ConversationListener = (event: AnyEvent, index: number | undefined) => void;

export interface ConversationOptions {
  /** The agent the conversation starts with (its system prompt opens the log). */
  agent: Agent;
  /**
   * Agents control can pass to, by name (`agent` included or not: it is named by its key here, else by its
   * `name`). With more than one, each gets a `transfer_to_agent({agent_name, reason?})` tool listing the others;
   * the agent in control is recorded in the log (state update `active_agent`), so a resume given the same agents
   * continues with it (`UnknownAgentError` when it was not given). `InvalidAgentRosterError` for clashing names.
   */
  agents?: Readonly<Record<string, Agent>>;
  /**
   * Gives the agents an `escalate({reason})` tool that stops this conversation's run (paused) for a human; the
   * delegate tool sets it for its sub-agents, whose escalation then stops their parent's run too.
   */
  escalate?: boolean;
  /** The directory tools work in. Default: the current directory. */
  workspace?: string;
  /**
   * Captures the workspace after every step into a content-addressed store beside the conversation, so that
   * `navigateTo`, `fork` and `editEvent` restore the files as they were at that event. Default false.
   */
  workspaceCheckpoints?: boolean;
  /** The store that holds conversations (any FileStore). Default: a local store at `persistenceDir`. */
  store?: FileStore;
  /** Directory of the default local store. Default: `$X_HOME/conversations` or `~/.x/conversations`. */
  persistenceDir?: string;
  /** Conversation id (hyphenated UUID). Default: a new UUID v4. */
  id?: string;
  /**
   * On resume, when the event log lost an event in the middle (its file and slot claim gone, event files past it:
   * otherwise recording fails with `ConversationLogGapError`), ends the log at the gap: the event files past it
   * move, with their slot claims, to `events-past-gap-<index>/` in the conversation's directory (kept, no longer
   * part of the conversation), a process warning `X_LOG_GAP_REPAIRED` says so, and the conversation goes on from
   * the missing index. Never done without it. Default false.
   */
  repairLogGap?: boolean;
  /** Iteration limit of one `run`. Default 500. */
  maxIterationsPerRun?: number;
  /** Stuck detection: `true` (default) uses the reference thresholds, `false` turns it off. */
  stuckDetection?: boolean | StuckThresholdsInput;
  /** Default `{ kind: 'NeverConfirm' }`. */
  confirmationPolicy?: ConfirmationPolicyInput;
  /**
   * How action risk is assessed for confirmation: `'llm'` (default) trusts the `security_risk` the model
   * declares; `'none'` makes every risk UNKNOWN (and the model is not asked for one); or a function.
   */
  securityAnalyzer?: 'llm' | 'none' | SecurityAnalyzer | null;
  /** Secrets given to commands that mention them, masked in observations, never persisted in clear. */
  secrets?: SecretRegistry | Readonly<Record<string, SecretInput>>;
  /** With a key, secrets are persisted encrypted (Fernet, as the reference) instead of redacted. */
  secretKey?: string;
  /**
   * An Ed25519 private key that signs every event this conversation appends (its signer is named by the key's
   * `did:key`); the signatures are kept in `events/.chain/signatures/`, outside the event files. Default: the
   * agent's `signingKey`. `approverSigningKey` signs the user's events instead when given.
   */
  signingKey?: KeyObject;
  /** An Ed25519 private key that signs the events whose source is `user` (messages, approvals, rejections). */
  approverSigningKey?: KeyObject;
  /** Called for every event, in order. */
  onEvent?: ConversationListener;
  /** Durability of the default local store. Default 'fsync'. */
  durability?: 'fsync' | 'none';
  /**
   * Hooks run at PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, SessionEnd and Stop, in the
   * reference's hook configuration shape (`.openhands/hooks.json`); shell commands or functions.
   */
  hooks?: HookConfig | HookConfigInput;
  /** Variables added to the minimal environment of hook processes (never the host's environment). */
  hookEnv?: Readonly<Record<string, string>>;
  /**
   * One owner per conversation across processes and replicas: each `run` takes the conversation's lease, and
   * a second process's `run` gets `ConversationAlreadyRunningError` naming the conversation and the holder (or
   * waits, with `leaseWaitMs`). Default: leases in the conversation's own store
   * (`createFileStoreLeases(store, { ttlMs: leaseTtlMs })`, files under `<conversation dir>/.lease/`), whatever
   * the store (memory, local, S3). Pass leases (e.g. `PostgresLeases` from @x/store-postgres) to share the
   * conversation between replicas: then every append also lands only at the index after the events this
   * instance folded, and is refused once another owner took the lease over. `false`: no ownership at all (the
   * caller promises that one process runs the conversation at a time).
   */
  leases?: Leases | false;
  /**
   * How long the default leases' holder may go without renewing (it renews every third of it) before another
   * process takes the conversation over: a process killed mid-run blocks others for this long. Default 15 000.
   */
  leaseTtlMs?: number;
  /**
   * Where the conversation's events live. Default: `EventLog` files in `store` under
   * `<id>/events` (the reference layout). E.g. `({ conversationId }) => PostgresEventLog.open(db, { logId: conversationId })`.
   */
  openEventLog?: (location: { conversationId: string; store: FileStore; dir: string }) => Promise<EventLogLike>;
  /** How long `run` waits for a lease another owner holds before `ConversationAlreadyRunningError`. Default 0. */
  leaseWaitMs?: number;
  /**
   * With `leases`: what a run that takes over from an owner that died mid-action does with the action it was
   * executing (its effect is unknown). `'report'` (default): answers it with an AgentErrorEvent saying so,
   * shown to the model, not run again. `'rerun'`: runs it again. `'confirm'`: waits for a human, as
   * confirmation mode does (status `waiting_for_confirmation`; `run` again runs it, `rejectPendingActions` drops it).
   */
  interruptedActions?: 'report' | 'rerun' | 'confirm';
  /**
   * Rules that decide on tool calls per tool and argument pattern (`approved`, `denied`, `user-approval`,
   * `not-applicable`: the confirmation policy decides), recorded with the rule as principal. Parse untrusted
   * config with `approvalRulesSchema`. See the README's "Approvals".
   */
  approvalRules?: ApprovalRules;
  /**
   * Tools the client runs (`executedByClient`), offered to the model beside the agent's own, read at every step
   * (an AG-UI run input brings its frontend tools). Their results come back as `substitute` decisions.
   */
  clientTools?: () => readonly Tool[];
  /**
   * The sandbox policy every process started for the conversation runs under: the terminal's shell, command
   * hooks, MCP stdio servers, sub-agents' processes. Default: sandboxed (bubblewrap), no network, the workspace
   * writable. `{ mode: 'unsandboxed' }` is the explicit opt-out (warned about once per process). Recorded in
   * `x_sandbox_policy.json`; a resumed conversation keeps its recorded policy unless given one.
   */
  sandbox?: SandboxPolicyInput;
  /** Opens the sandbox (default `openDefaultSandbox`: bubblewrap, or the opt-out for `mode: 'unsandboxed'`). */
  openSandbox?: SandboxOpener;
  /**
   * A money budget for the whole conversation (dollars, or `{ maxUsd, allowUnknownCost }`): checked before every
   * model call against the spend in the log (sub-agents included); reaching it stops the run (status `error`,
   * ConversationErrorEvent `MaxBudgetReached`). Persisted in `x_budget.json`; a resumed conversation keeps its
   * recorded budget unless given one. `InvalidBudgetError` for a negative or non-numeric one.
   */
  budget?: BudgetInput;
}

export interface SendMessageOptions {
  /** Who sent it (the reference's `sender`, a multi-agent label). */
  sender?: string;
  /** More text for the model with this message (its `extended_content`, after the text of the skills it activates). */
  extendedContent?: readonly TextContent[];
  /**
   * The MessageEvent's id (default: a fresh UUID v4): a client's own id for what it sent (an A2A `messageId`), so
   * the message can be found by it. 1-128 letters, digits, `.`, `_` or `-`, starting with a letter or digit (it
   * names the event's file), and not the id of an event already in the log: `InvalidMessageError` otherwise.
   */
  id?: string;
}

export interface RunOptions {
  /** Overrides the per-run iteration limit for this run. */
  maxIterations?: number;
  /**
   * Aborting interrupts the run, as `Conversation.interrupt()` does: the model call and running tools are
   * cancelled at once, an InterruptEvent is recorded, the status becomes `paused`, and `run` resolves (it
   * does not throw). A later `run()` continues.
   */
  signal?: AbortSignal;
  /** With `leases`: how long this run waits for another owner's lease (overrides `leaseWaitMs`). */
  leaseWaitMs?: number;
  /** A money budget for this run only, counted from the spend when it starts (not persisted). */
  budget?: BudgetInput;
}

/** How a run ended. */
export interface RunResult {
  status: ExecutionStatus;
  /** Steps taken by this run. */
  iterations: number;
  /** True when the run stopped at the iteration limit. */
  reachedIterationLimit: boolean;
  /** True when the run was interrupted (`interrupt()` or its `signal`); the status is then `paused`. */
  interrupted?: true;
  /**
   * Why a guard stopped the run before a model call (a money budget: the ConversationErrorEvent's detail); the
   * status is then `error`. Raise the budget and run again to continue.
   */
  stoppedBeforeModelCall?: string;
  /** With `agents`: the name of the agent in control when the run ended. */
  agent?: string;
}

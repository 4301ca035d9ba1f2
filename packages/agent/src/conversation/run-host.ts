import type { ActionEvent, AnyEvent } from '@x/events';
import type { EventLogLike, FileStore } from '@x/store';
import type { Agent } from '../agent/agent.js';
import type { StepContext } from '../agent/step-context.js';
import type { RuleSettings } from '../approvals/decide-by-rules.js';
import type { ConversationHooks } from '../hooks/conversation-hooks.js';
import type { ConversationState } from '../state/conversation-state.js';
import type { ExecutionStatus } from '../state/execution-status.js';
import type { StuckDetector } from '../stuck/stuck-detector.js';
import type { Tool } from '../tools/tool.js';

/**
 * The part of a conversation the run loop, `condense` and the interrupt and takeover records read. A `Conversation`
 * is one; declared here rather than imported so that these modules do not import the conversation that uses them.
 */
export interface RunHostConversation {
  readonly id: string;
  readonly agent: Agent;
  /** Human-readable location of the conversation's files (named in `ConversationRunError`). */
  readonly location: string;
  /** Where the conversation's files are (its decision records among them). */
  readonly store: FileStore;
  readonly directory: string;
  readonly log: EventLogLike;
  pendingActions(): Promise<ActionEvent[]>;
}

/** What the run loop needs from a conversation. */
export interface RunHost {
  conversation: RunHostConversation;
  state(): ConversationState;
  /** Resolves once every event queued so far is appended and applied. */
  settle(): Promise<void>;
  emit(event: AnyEvent): Promise<void>;
  setStatus(status: ExecutionStatus): Promise<void>;
  recentEvents(): readonly AnyEvent[];
  stuckDetector: StuckDetector | undefined;
  stepContext(signal: AbortSignal | undefined): StepContext;
  checkpoint(): Promise<void>;
  assertOpen(): void;
  /** Removes and returns the reason a hook blocked this user message (from the persisted state). */
  popBlockedMessage(messageId: string | undefined): Promise<string | undefined>;
  /** The name of the agent in control (its key in `ConversationOptions.agents`); default its own `name`. */
  agentName?(): string;
  /** The tools the agent in control calls (its own and the roster's); default `conversation.agent.tools`. */
  toolsInControl?(): readonly Tool[];
  /** Takes a workspace checkpoint (recorded at HEAD when the files changed); a no-op with checkpoints off. */
  captureWorkspace?(): Promise<unknown>;
  /** Approval rules and the confirmation policy they fall back to (see `decideByRules`). */
  approvalRules?: RuleSettings;
  /** The conversation's hooks, when it has any. */
  hooks?: ConversationHooks;
  /** The tools the client runs (`ConversationOptions.clientTools`): decisions may substitute their results. */
  clientTools?(): readonly Tool[];
  /** Hides the conversation's secrets in a text (`SecretRegistry.mask`); default: nothing hidden. */
  mask?(text: string): string;
  /** Whether `pause()` was asked for while the run waited for confirmation (`RunControl.requestPause`); clears it. */
  takePauseRequest?(): boolean;
  /** The conversation's money budgets (asked by `preModelCallGuard`). */
  budget?: { guard(): Promise<{ proceed: true } | { proceed: false; reason: string }> };
}

import type { ActionEvent, AnyEvent, View } from '@x/events';
import type { LLM, LLMResponse } from '../llm/llm.js';
import type { ConversationState } from '../state/conversation-state.js';
import type { ExecutionStatus } from '../state/execution-status.js';
import type { Tool, ToolContext } from '../tools/tool.js';

/**
 * What the agent sees of its conversation during one step. The conversation implements it; the agent
 * never touches storage directly, so a step is the same whether the log is on disk, in S3 or in memory.
 */
export interface StepContext {
  /** The derived state as of the last emitted event. */
  readonly state: ConversationState;
  /** The LLM-visible view, maintained incrementally as events are emitted. */
  view(): Promise<View>;
  /** Appends an event to the log, applies it to the state and notifies listeners, in that order. */
  emit(event: AnyEvent): Promise<void>;
  /** Notifies listeners of an event that is not persisted (streaming deltas). */
  publish(event: AnyEvent): void;
  /** Records a status change as a ConversationStateUpdateEvent (no event when unchanged). */
  setStatus(status: ExecutionStatus): Promise<void>;
  /** Adds an LLM response's usage and cost to the stats (recorded as a state update). */
  recordResponse(llm: LLM, response: LLMResponse): Promise<void>;
  /** The executable ActionEvents that have no result yet, oldest first (reference §8.4). */
  pendingActions(): Promise<ActionEvent[]>;
  /** Whether the actions of one response must wait for the user's confirmation (reference §8.6). */
  requiresConfirmation(actions: readonly ActionEvent[]): boolean;
  /** Where and how a tool runs for one action: workspace, secret environment, abort signal. */
  toolContext(action: ActionEvent): Promise<ToolContext>;
  /** Masks secret values in text that leaves a tool. */
  maskSecrets(text: string): string;
  /** Whether the LLM's `security_risk` argument is read (a security analyzer is active). */
  readonly securityAnalyzerEnabled: boolean;
  readonly signal?: AbortSignal;
  /** The model this step calls when the conversation switched it (`Conversation.switchLLM`); else the agent's. */
  readonly llm?: LLM | undefined;
  /**
   * Tools the conversation adds to the agent's own for this step (`transfer_to_agent` with several agents,
   * `escalate` in a sub-agent's conversation).
   */
  readonly conversationTools?: readonly Tool[];
  /**
   * The agent in control is not the one whose SystemPromptEvent opens the log (control was transferred): the
   * step sends its own system prompt in place of the log's.
   */
  readonly ownSystemPrompt?: boolean;
  /** Why a hook blocked this action, if one did (consumed: asked once per action, when it would run). */
  takeHookBlock?(actionId: string): Promise<string | undefined>;
  /**
   * Whether the conversation was paused (`pause()` during the step): asked before each action starts, so none starts
   * after a pause (it stays pending and runs when the conversation is run again). A run's steps (and `condense`'s)
   * have it; one tool run on request (`executeTool`) does not.
   */
  paused?(): Promise<boolean>;
}

import type { AnyEvent } from '@x/events';
import type { StepContext } from '../agent/step-context.js';
import type { ConversationHooks } from '../hooks/conversation-hooks.js';
import type { ConversationState } from '../state/conversation-state.js';
import type { ExecutionStatus } from '../state/execution-status.js';
import type { StuckDetector } from '../stuck/stuck-detector.js';
import type { Conversation } from './conversation.js';

/** What the run loop needs from a conversation. */
export interface RunHost {
  conversation: Conversation;
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
  /** The conversation's hooks, when it has any. */
  hooks?: ConversationHooks;
}

import type { ActionEvent, AnyEvent } from '@x/events';
import type { FileStore } from '@x/store';
import type { ConversationState } from '../state/conversation-state.js';
import type { ExecutionStatus } from '../state/execution-status.js';
import type { Tool } from '../tools/tool.js';

/** What deciding on pending actions needs of a conversation (a `Conversation` provides it). */
export interface ApprovalHost {
  readonly conversationId: string;
  readonly store: FileStore;
  /** The conversation's directory in `store` (its events are under `<directory>/events`). */
  readonly directory: string;
  readonly tools: readonly Tool[];
  state(): ConversationState;
  pendingActions(): Promise<ActionEvent[]>;
  /** The event with this id, or undefined when the log has none. */
  getEvent(id: string): Promise<AnyEvent | undefined>;
  emit(event: AnyEvent): Promise<void>;
  setStatus(status: ExecutionStatus): Promise<void>;
}

import type { Agent } from '../agent/agent.js';
import type { ConfirmationPolicyInput } from '../confirmation/confirmation-policy.js';
import type { ConversationOptions } from './conversation-options.js';

/** Options of `Conversation.fork` (the reference's `fork` arguments, camelCase). */
export interface ForkOptions {
  /** Id of the new conversation (hyphenated UUID); a new one by default. */
  id?: string;
  /** Copy only the branch from the root to this event and make it HEAD; the whole log by default. */
  fromEventId?: string;
  /**
   * Workspace of the fork; this conversation's by default. With workspace checkpoints on, the fork's workspace
   * gets the files as they were at `fromEventId` (give a separate directory to keep the original's files).
   */
  workspace?: string;
  /** Agent of the fork; this conversation's by default. */
  agent?: Agent;
  /** Title of the fork (recorded as a `title` state update). */
  title?: string;
  /** Start with empty stats (default true); false copies this conversation's. */
  resetMetrics?: boolean;
  /** Confirmation policy of the fork; NeverConfirm by default, as a new reference conversation. */
  confirmationPolicy?: ConfirmationPolicyInput;
  /** Secrets of the fork; none by default, as in the reference. */
  secrets?: ConversationOptions['secrets'];
}

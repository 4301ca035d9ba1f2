import type { AnyEvent } from '@x/events';
import type { WorkspaceCheckpoints } from '../checkpoints/workspace-checkpoints.js';
import type { ConversationState } from '../state/conversation-state.js';
import { diffManifests, type FileChanges } from './manifest-diff.js';

/** What `compareConversations` reads of a conversation (a `Conversation` is one). */
export interface ComparableConversation {
  readonly id: string;
  readonly state: ConversationState;
  readonly checkpoints: WorkspaceCheckpoints;
  activeBranch(): Promise<AnyEvent[]>;
}

/** One action of a branch after the point the two branches share. */
export interface ComparedAction {
  event_id: string;
  tool_name: string;
  summary: string;
}

/** One side of a comparison: its active branch after the shared events. */
export interface BranchComparison {
  conversation_id: string;
  /** Events on the branch after the shared ones (state updates not counted). */
  events: number;
  actions: ComparedAction[];
  observations: number;
  /** Tool errors and rejected actions. */
  errors: number;
  /** Model responses on the branch after the shared events. */
  responses: number;
  /** Tokens (prompt + completion) the conversation has used in all (a fork starts from zero unless `resetMetrics: false`). */
  tokens: number;
  /** What the conversation has paid in all, likewise. */
  cost: number;
  /** The conversation's execution status. */
  status: string;
  /** The last thing the agent said (its finish message or last reply), if anything. */
  final_message: string | undefined;
  /** Files changed from the shared point to the branch's HEAD (undefined: no checkpoints to compare). */
  files_changed: FileChanges | undefined;
}

/** Two conversations' active branches compared from the last event they share (a fork and its original, say). */
export interface ConversationComparison {
  /** The last event both branches have (undefined when they share none). */
  common_event_id: string | undefined;
  common_events: number;
  a: BranchComparison;
  b: BranchComparison;
  /** Files whose content differs between the two HEADs' workspaces (undefined without checkpoints on both). */
  files_differing: string[] | undefined;
}

/**
 * Compares the active branches of `a` and `b` after the events they share (by id: a fork copies its origin's
 * events unchanged, and `editEvent` branches off inside one conversation): actions, observations, errors,
 * tokens, cost, outcome, and (with workspace checkpoints) the files each changed and where the results differ.
 */
export async function compareConversations(
  a: ComparableConversation,
  b: ComparableConversation,
): Promise<ConversationComparison> {
  const [branchA, branchB] = [treeEvents(await a.activeBranch()), treeEvents(await b.activeBranch())];
  let common = 0;
  while (common < branchA.length && common < branchB.length && branchA[common]!.id === branchB[common]!.id) common++;
  const commonEventId = common === 0 ? undefined : branchA[common - 1]!.id;
  const [sideA, headA] = await side(a, branchA.slice(common), commonEventId);
  const [sideB, headB] = await side(b, branchB.slice(common), commonEventId);
  const differing =
    headA === undefined || headB === undefined
      ? undefined
      : (({ added, modified, removed }) => [...added, ...modified, ...removed].sort())(diffManifests(headA, headB));
  return { common_event_id: commonEventId, common_events: common, a: sideA, b: sideB, files_differing: differing };
}

function treeEvents(events: readonly AnyEvent[]): AnyEvent[] {
  return events.filter((event) => event.kind !== 'ConversationStateUpdateEvent');
}

async function side(
  conversation: ComparableConversation,
  after: readonly AnyEvent[],
  commonEventId: string | undefined,
) {
  const responses = new Set<string>();
  const actions: ComparedAction[] = [];
  let observations = 0;
  let errors = 0;
  let finalMessage: string | undefined;
  for (const event of after) {
    if (event.kind === 'ActionEvent') {
      responses.add(event.llm_response_id);
      actions.push({ event_id: event.id, tool_name: event.tool_name, summary: event.summary ?? describe(event) });
      const message = (event.action as { message?: unknown } | undefined)?.message;
      if (event.tool_name === 'finish' && typeof message === 'string') finalMessage = message;
    } else if (event.kind === 'ObservationEvent') observations++;
    else if (event.kind === 'AgentErrorEvent' || event.kind === 'UserRejectObservation') errors++;
    else if (event.kind === 'MessageEvent' && event.source === 'agent') {
      if (event.llm_response_id !== undefined) responses.add(event.llm_response_id);
      const text = event.llm_message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      if (text.trim() !== '') finalMessage = text;
    }
  }
  let tokens = 0;
  let cost = 0;
  for (const metrics of Object.values(conversation.state.stats.usage_to_metrics)) {
    cost += metrics.accumulated_cost;
    tokens += metrics.accumulated_token_usage.prompt_tokens + metrics.accumulated_token_usage.completion_tokens;
  }
  const head = after.at(-1)?.id ?? commonEventId;
  const files = await filesChanged(conversation.checkpoints, commonEventId, head ?? null);
  const comparison: BranchComparison = {
    conversation_id: conversation.id,
    events: after.length,
    actions,
    observations,
    errors,
    responses: responses.size,
    tokens,
    cost,
    status: conversation.state.execution_status,
    final_message: finalMessage,
    files_changed: files?.changes,
  };
  return [comparison, files?.head] as const;
}

async function filesChanged(checkpoints: WorkspaceCheckpoints, from: string | undefined, to: string | null) {
  // Records are read even when checkpoints are off now: a conversation resumed without them keeps its history.
  const [start, end] = await Promise.all([checkpoints.at(from ?? null), checkpoints.at(to)]);
  if (end === undefined) return undefined;
  const before = start === undefined ? undefined : await checkpoints.manifest(start.checkpoint_id);
  const head = await checkpoints.manifest(end.checkpoint_id);
  return { changes: diffManifests(before, head), head };
}

function describe(event: AnyEvent & { kind: 'ActionEvent' }): string {
  const action = event.action as Record<string, unknown> | undefined;
  const detail = action?.command ?? action?.path ?? action?.message;
  return typeof detail === 'string' ? detail.slice(0, 80) : '';
}

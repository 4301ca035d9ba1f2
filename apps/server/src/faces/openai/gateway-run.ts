import { randomUUID } from 'node:crypto';
import { agentFinalResponse } from '@x/agent';
import type { StartConversationRequest } from '../../api/request-schemas.js';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import type { ManagedConversation } from '../../conversations/managed-conversation.js';
import type { AgentAnswer } from './chat-completion.js';
import type { ChatTurn } from './chat-request.js';
import { assertContinues, MODEL_TAG, withSystemText } from './conversation-continuation.js';
import { type OpenAiErrorType, OpenAiGatewayError } from './openai-error.js';
import { type ResponseUsage, usageBetween, usageTotalsOf } from './response-object.js';

/** How long one wait for a run's end lasts before checking again (agent runs may be long). */
const RUN_WAIT_MS = 60_000;

/**
 * The failures of a run that OpenAI answers with a status of their own, by the ConversationErrorEvent's code (an
 * exception class name, or the budget's stop): the `openai` SDK raises a `RateLimitError` for a 429 and a
 * `BadRequestError` for a 400, so a client tells a provider's rate limit, a spent budget or a conversation too long for
 * the model's context from a failed run. Any other failure is a 500 `agent_run_failed`.
 */
const FAILURES: Readonly<Record<string, { status: number; type: OpenAiErrorType; code: string }>> = {
  LLMRateLimitError: { status: 429, type: 'requests', code: 'rate_limit_exceeded' },
  MaxBudgetReached: { status: 429, type: 'insufficient_quota', code: 'insufficient_quota' },
  LLMContextWindowExceededError: { status: 400, type: 'invalid_request_error', code: 'context_length_exceeded' },
};

/** A run the gateway started: its conversation, the log index where its events begin, and its tokens before it. */
export interface GatewayRun {
  conversation: ManagedConversation;
  fromIndex: number;
  /** The conversation's token totals when the run started: an answer reports what its own run spent, as OpenAI's. */
  usageBefore: ResponseUsage;
}

const usageOf = (state: { stats?: unknown }): ResponseUsage => usageTotalsOf(state.stats);

/** What a run is started from: the model asked (its name and create body), the turn, and the conversation named. */
export interface GatewayRunRequest {
  model: string;
  create: StartConversationRequest;
  turn: ChatTurn;
  conversationId?: string | undefined;
  /** Where the request carries its system text (`messages`, `instructions`): the param of a refusal. */
  systemParam: string;
  /**
   * Set when the request continues a conversation that must exist (`previous_response_id`): the error when it is gone.
   * A conversation made in its place would answer without the history the client asked to continue from.
   */
  missing?: ((conversationId: string) => OpenAiGatewayError) | undefined;
}

/** The conversation the request continues, or a new one made from the model's create body (see `startGatewayRun`). */
async function conversationFor(
  manager: ConversationManager,
  options: GatewayRunRequest,
): Promise<{ conversation: ManagedConversation; created: boolean }> {
  const { conversationId, missing } = options;
  if (missing !== undefined && conversationId !== undefined) {
    const conversation = await manager.get(conversationId);
    if (conversation === undefined) throw missing(conversationId);
    return { conversation, created: false };
  }
  const create = withSystemText(options.create, options.turn.system);
  return manager.create({
    ...create,
    tags: { ...(create.tags ?? {}), [MODEL_TAG]: options.model },
    conversation_id: conversationId ?? randomUUID(),
    initial_message: null,
  });
}

/**
 * Refuses a turn on a conversation whose actions wait for confirmation (409 `conversation_waiting_for_confirmation`),
 * before the turn is recorded. A run executes what waits, and a chat client sees no confirmation to answer: its next
 * message ("no, don't") would approve the actions. They are decided through the conversation API, whose id the
 * 409 that stopped the run carried.
 */
async function refuseWhileActionsWait(conversation: ManagedConversation): Promise<void> {
  const pending = await (await conversation.open()).pendingActions();
  if (pending.length === 0) return;
  const named = pending.map((action) => `'${action.id}' (${action.tool_name})`).join(', ');
  throw new OpenAiGatewayError(
    { status: 409, type: 'invalid_request_error', code: 'conversation_waiting_for_confirmation', param: null },
    `Conversation ${conversation.id} waits for confirmation of ${pending.length} action(s): ${named}; decide them with POST /api/conversations/${conversation.id}/events/respond_to_confirmation before the next message`,
  );
}

/**
 * Starts the agent on a request's turn. Without `conversationId`, or with one no conversation has yet, a new
 * conversation is created from the model's create body (system text appended to its system message suffix, the model
 * in its tags), as the reference does (unless the request continues one that must exist, `missing`); with the id of an
 * existing conversation, the user message continues it, when the request asks the conversation's own model and system
 * text (`assertContinues`).
 */
export async function startGatewayRun(manager: ConversationManager, options: GatewayRunRequest): Promise<GatewayRun> {
  const { conversation, created } = await conversationFor(manager, options);
  if (!created) {
    assertContinues(conversation.meta, {
      model: options.model,
      create: options.create,
      system: options.turn.system,
      systemParam: options.systemParam,
    });
  }
  if (conversation.isRunning) {
    throw new OpenAiGatewayError(
      { status: 409, type: 'invalid_request_error', code: 'conversation_running', param: null },
      `Conversation ${conversation.id} is running: wait for its answer before sending the next message`,
    );
  }
  // Claimed with the check, before any await: a turn sent at the same moment finds the conversation running (the 409
  // above, nothing of it recorded), and no other start slips in between this turn's recording and its own run.
  const reservation = conversation.reserveRun();
  try {
    await refuseWhileActionsWait(conversation);
    // Before the turn is recorded: a turn refused its run (its pending actions not the caller's to approve) leaves none.
    await conversation.assertMayRun();
    const fromIndex = await conversation.sendMessage(
      { role: 'user', content: options.turn.user, thinking_blocks: [] } as Parameters<
        ManagedConversation['sendMessage']
      >[0],
      { run: false },
    );
    const usageBefore = usageOf((await conversation.open()).state as { stats?: unknown });
    await reservation.start();
    return { conversation, fromIndex, usageBefore };
  } finally {
    reservation.release();
  }
}

/**
 * Waits for the run to end and reads its answer: the agent's final response among the run's events and the tokens
 * the run spent (the conversation's totals now, less those when it started). A run that ends in `error` or `stuck` is a 500; one that stops for a confirmation
 * or a pause is a 409 (as the reference), and so is one whose conversation was deleted meanwhile (`conversation_deleted`).
 */
export async function gatewayAnswer(
  run: GatewayRun,
  identity: { id: string; created: number; model: string },
): Promise<AgentAnswer> {
  const { conversation, fromIndex } = run;
  while (conversation.isRunning) await conversation.waitForRun(RUN_WAIT_MS);
  // Deleted while it ran: the delete stopped the run (its conversation reads paused), and nothing is left to continue.
  if (conversation.isDeleted) {
    throw new OpenAiGatewayError(
      { status: 409, type: 'invalid_request_error', code: 'conversation_deleted' },
      `The agent's run in conversation ${conversation.id} did not answer: the conversation was deleted`,
    );
  }
  const open = await conversation.open();
  const status = open.state.execution_status;
  const events = await conversation.log.range(fromIndex, conversation.log.length);
  if (status === 'error' || status === 'stuck') {
    const failure = events.findLast((event) => event.kind === 'ConversationErrorEvent') as
      | { code?: string; detail?: string }
      | undefined;
    const detail = failure === undefined ? '' : `: ${failure.code ?? 'error'}: ${failure.detail ?? ''}`;
    const known =
      failure?.code !== undefined && Object.hasOwn(FAILURES, failure.code) ? FAILURES[failure.code] : undefined;
    throw new OpenAiGatewayError(
      known ?? { status: 500, type: 'server_error', code: 'agent_run_failed' },
      `The agent's run in conversation ${conversation.id} ended with status ${status}${detail}`,
    );
  }
  if (status === 'paused' || status === 'waiting_for_confirmation') {
    throw new OpenAiGatewayError(
      { status: 409, type: 'invalid_request_error', code: 'agent_run_not_finished' },
      `The agent's run in conversation ${conversation.id} stopped with status ${status}`,
    );
  }
  const usage = usageBetween(run.usageBefore, usageOf(open.state as { stats?: unknown }));
  return { ...identity, content: await agentFinalResponse(events), usage };
}

/**
 * Stops the run because its client went away (an OpenAI client cancels a completion by closing its request): the
 * model call and running tools are aborted, an InterruptEvent is recorded and the conversation is `paused`. Nothing
 * is done when the run is already over, so a finished conversation is never paused.
 */
export async function interruptRun(run: GatewayRun): Promise<void> {
  if (run.conversation.isRunning) await run.conversation.interrupt();
}

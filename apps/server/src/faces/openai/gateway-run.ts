import { randomUUID } from 'node:crypto';
import { agentFinalResponse } from '@x/agent';
import type { StartConversationRequest } from '../../api/request-schemas.js';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import type { ManagedConversation } from '../../conversations/managed-conversation.js';
import { type AgentAnswer, type CompletionUsage, usageOfStats } from './chat-completion.js';
import type { ChatTurn } from './chat-request.js';
import { type OpenAiErrorType, OpenAiGatewayError } from './openai-error.js';

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

/** A run the gateway started: its conversation, and the log index where its events begin. */
export interface GatewayRun {
  conversation: ManagedConversation;
  fromIndex: number;
}

function withSystemText(create: StartConversationRequest, system: string): StartConversationRequest {
  if (system === '') return create;
  const context = (create.agent.agent_context ?? {}) as { system_message_suffix?: unknown };
  const existing = typeof context.system_message_suffix === 'string' ? context.system_message_suffix.trim() : '';
  const suffix = [existing, system.trim()].filter((text) => text !== '').join('\n\n');
  return { ...create, agent: { ...create.agent, agent_context: { ...context, system_message_suffix: suffix } } };
}

/**
 * Starts the agent on a request's turn. Without `conversationId`, or with one no conversation has yet, a new
 * conversation is created from the model's create body (system text appended to its system message suffix),
 * as the reference does; with the id of an existing conversation, the user message continues it.
 */
export async function startGatewayRun(
  manager: ConversationManager,
  options: { create: StartConversationRequest; turn: ChatTurn; conversationId?: string | undefined },
): Promise<GatewayRun> {
  const { conversation } = await manager.create({
    ...withSystemText(options.create, options.turn.system),
    conversation_id: options.conversationId ?? randomUUID(),
    initial_message: null,
  });
  if (conversation.isRunning) {
    throw new OpenAiGatewayError(
      { status: 409, type: 'invalid_request_error', code: 'conversation_running', param: null },
      `Conversation ${conversation.id} is running: wait for its answer before sending the next message`,
    );
  }
  // Before the turn is recorded: a turn refused its run (its pending actions not the caller's to approve) leaves none.
  await conversation.assertMayRun();
  await conversation.sendMessage(
    { role: 'user', content: options.turn.user, thinking_blocks: [] } as Parameters<
      ManagedConversation['sendMessage']
    >[0],
    { run: false },
  );
  const fromIndex = conversation.log.length;
  await conversation.startRun();
  return { conversation, fromIndex };
}

/**
 * Waits for the run to end and reads its answer: the agent's final response among the run's events and the
 * conversation's token usage. A run that ends in `error` or `stuck` is a 500; one that stops for a confirmation
 * or a pause is a 409 (as the reference).
 */
export async function gatewayAnswer(
  run: GatewayRun,
  identity: { id: string; created: number; model: string },
): Promise<AgentAnswer> {
  const { conversation, fromIndex } = run;
  while (conversation.isRunning) await conversation.waitForRun(RUN_WAIT_MS);
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
  const usage: CompletionUsage = usageOfStats((open.state as { stats?: unknown }).stats);
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

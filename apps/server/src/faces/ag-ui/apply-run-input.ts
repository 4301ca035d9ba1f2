import { isDeepStrictEqual } from 'node:util';
import { AgentError, isMessageId } from '@x/agent';
import type { ActionEvent } from '@x/events';
import { assertMayDecide } from '../../conversations/approval-gate.js';
import type { ClientTools } from '../../conversations/client-tools.js';
import { InvalidRequestError } from '../../conversations/errors/invalid-request-error.js';
import type { ManagedConversation } from '../../conversations/managed-conversation.js';
import { clientText } from '../../internal/client-text.js';
import { AgUiRunError } from './ag-ui-run-error.js';
import { AG_UI_CLIENT_PRINCIPAL, frontendResultsOf, frontendToolsOf, isFrontendCall } from './frontend-tools.js';
import { lastRecordedTexts } from './last-recorded-texts.js';
import { CONTEXT_OPENING, runContextContent } from './run-context.js';
import { type AgUiResumeEntry, type AgUiRunInput, confirmationDecision } from './run-input.js';
import { SHARED_STATE_OPENING, sharedStateContent, sharedStateDeltaOf } from './shared-state.js';
import { streamAnchorOf } from './streamed-messages.js';
import { userMessageContent } from './user-content.js';

/**
 * The log index a client message id points at when it is one this face gave out (a log event's id, or a streamed
 * message's, which names the event before it), else -1.
 */
function loggedIndexOf(conversation: ManagedConversation, messageId: string): number {
  const index = conversation.log.indexOf(messageId);
  if (index >= 0) return index;
  const anchor = streamAnchorOf(messageId);
  return anchor === undefined ? -1 : conversation.log.indexOf(anchor);
}

/**
 * How many of the input's new user messages, from the first, the log already holds after index `after`, in order and
 * with the same content. The client never learns the log ids of its own user messages: a run that failed (or was cut
 * off) before the agent said anything leaves the client's thread with nothing this face gave out after them, so
 * retrying the run sends them again; they were taken once and are not recorded twice.
 */
async function alreadyTaken(
  conversation: ManagedConversation,
  after: number,
  contents: readonly (readonly unknown[])[],
): Promise<number> {
  if (contents.length === 0) return 0;
  const events = await conversation.log.range(after + 1, conversation.log.length);
  const logged = events.flatMap((event) =>
    event.kind === 'MessageEvent' && event.source === 'user' && event.llm_message.content.length > 0
      ? [event.llm_message.content]
      : [],
  );
  let taken = 0;
  while (taken < contents.length && taken < logged.length && isDeepStrictEqual(contents[taken], logged[taken])) {
    taken += 1;
  }
  return taken;
}

/**
 * Whether the input retries a turn the thread took: its last message is a user message the log holds under the
 * client's id. Such a retry acts again, as one matched by content does: a run going is joined, a failed one goes on,
 * and a turn the agent finished takes no new step (the run has nothing new to answer).
 */
function retriesUserTurn(input: AgUiRunInput, loggedAt: readonly number[]): boolean {
  const last = input.messages.length - 1;
  return last >= 0 && input.messages[last]?.role === 'user' && (loggedAt[last] ?? -1) >= 0;
}

/**
 * Refuses (`unanswered_interrupt`, nothing recorded) an input that would act while a confirmation interrupt of the
 * thread has no answer in `resume`, or one answered twice: `@ag-ui/client` refuses to send such an input, and a
 * producer taking it would approve the unanswered actions (a run executes what waits for confirmation). A frontend
 * call's interrupt is answered by its tool message, checked elsewhere; an entry for an unknown interrupt is a 409 below.
 */
function refuseUnansweredInterrupts(actions: readonly ActionEvent[], resume: readonly AgUiResumeEntry[]): void {
  const answered = new Set<string>();
  for (const entry of resume) {
    if (answered.has(entry.interruptId)) {
      throw new AgUiRunError(
        'unanswered_interrupt',
        `resume: interrupt '${clientText(entry.interruptId)}' is answered twice`,
      );
    }
    answered.add(entry.interruptId);
  }
  const unanswered = actions.filter((action) => !isFrontendCall(action) && !answered.has(action.id));
  if (unanswered.length === 0) return;
  const named = unanswered.map((action) => `'${action.id}' (${action.tool_name})`).join(', ');
  throw new AgUiRunError(
    'unanswered_interrupt',
    `The thread has ${unanswered.length} pending interrupt(s) not addressed by resume: ${named}; answer each with a resume entry (approve with payload { approved: true }, refuse with { approved: false, reason } or status 'cancelled')`,
  );
}

/**
 * Applies what a run input brings, after checking all of it (a refusal records nothing): its frontend `tools`
 * (offered to the model from now on), the results of the frontend calls the thread waits for (`role: "tool"`
 * messages, recorded as the calls' observations), the answers to the interrupts of the last run (approve runs the
 * pending actions; any refusal rejects them, with its reason, and the run goes on so the model sees it; the entry of a
 * frontend call's interrupt only acknowledges it, its result being its tool message), then the
 * shared `state` (what differs from the session state is recorded as one session-state update), then the user
 * messages the conversation does not have yet (those after the last message whose id this face gave out, less those
 * the log already holds after it: a retried turn), with their text and images (`user-content.ts`); the last of them
 * carries the input's `context` and, when the input shares state and acts, the shared state unless it is the last one
 * the model's messages hold, for the model (its `extended_content`). An input with no new user message (only tool
 * results or answers, or a bare re-run) records a user message of no text whose `extended_content` carries what the
 * model has not seen: its context unless it is the last one the log holds, and the shared state on the same terms as
 * above (so a state change alone records only the session-state update; the model reads the state with the next input
 * that acts). Starts a run when there was a message, result or answer to act on (a state or context change alone
 * starts none). Returns
 * whether a run was started.
 */
export async function applyRunInput(
  conversation: ManagedConversation,
  input: AgUiRunInput,
  clientTools: ClientTools,
): Promise<boolean> {
  // An input to a thread that is not running claims its run before any await: a run another request starts meanwhile
  // would otherwise refuse this one's (409) after its answers and messages were recorded. One to a running thread
  // joins that run.
  const joining = conversation.isRunning;
  const reservation = joining ? undefined : conversation.reserveRun();
  try {
    const act = await recordRunInput(conversation, input, clientTools, joining);
    if (act && reservation !== undefined) await reservation.start();
    // The joined run may have stopped stepping since: one is started then, unless it stopped at actions nobody answered.
    else if (act) await conversation.acceptPendingActions();
    return act;
  } finally {
    reservation?.release();
    void releaseAfterRun(conversation, clientTools);
  }
}

/** How long one wait for the run's end lasts before checking again (runs may be long). */
const RUN_WAIT_MS = 60_000;

/**
 * Frontend tools are offered for the run their input starts or joins: once it is over they are dropped, unless a later
 * input set its own meanwhile, so a run another face starts on the thread (REST, A2A, MCP, OpenAI) never offers the model
 * tools only an AG-UI client can run (a call to one would wait for a result nobody gives). A result the thread still
 * waits for is recorded all the same: the input that brings it names the call's tool (`answeredTools`).
 */
async function releaseAfterRun(conversation: ManagedConversation, clientTools: ClientTools): Promise<void> {
  const tools = clientTools.get(conversation.id);
  if (tools.length === 0) return;
  try {
    while (conversation.isRunning) await conversation.waitForRun(RUN_WAIT_MS);
  } catch {
    // A run whose end could not be awaited is over all the same; nothing waits for this promise to report it.
  }
  clientTools.release(conversation.id, tools);
}

/** Checks and records what the input brings (see `applyRunInput`); whether it asks for a run. */
async function recordRunInput(
  conversation: ManagedConversation,
  input: AgUiRunInput,
  clientTools: ClientTools,
  joining: boolean,
): Promise<boolean> {
  const open = await conversation.open();
  const loggedAt = input.messages.map((message) => loggedIndexOf(conversation, message.id));
  const known = loggedAt.findLastIndex((index) => index >= 0);
  const fresh = input.messages.slice(known + 1);
  const offered = frontendToolsOf(input, open);
  const stateDelta = sharedStateDeltaOf(input.state, open.session.state);
  const context = runContextContent(input.context);
  const results = await frontendResultsOf(fresh, open, offered);
  let refusal: { approved: boolean; reason?: string } | undefined;
  let decidedBy: string | undefined;
  const approved: string[] = [];
  const users = fresh
    .flatMap((message, position) =>
      message.role === 'user'
        ? [{ id: message.id, content: userMessageContent(message.content, `messages[${known + 1 + position}]`) }]
        : [],
    )
    .filter((user) => user.content.length > 0);
  const contents = users.map((user) => user.content);
  const resume = input.resume ?? [];
  const actions = await open.pendingActions();
  if (!joining && (resume.length > 0 || contents.length > 0 || results.decisions.length > 0)) {
    // An input that acts must answer every interrupt the thread has open (AG-UI 1.0's coverage rule): a run goes on
    // only past answered confirmations, so a new message never approves an action its sender did not answer. While a
    // run goes on, its actions without results are being run, not waiting: the input joins the run.
    refuseUnansweredInterrupts(actions, resume);
  }
  if (resume.length > 0) {
    // Answers to interrupts decide on pending actions: a decider's only (`approvalDeciders`), before anything is
    // recorded, and recorded as that caller's.
    decidedBy = assertMayDecide();
    const pending = new Set(actions.filter((action) => !isFrontendCall(action)).map((action) => action.id));
    // A frontend call raised as an interrupt beside a confirmation is answered by its tool message (checked above):
    // its entry only acknowledges it, and never counts as a refusal of the confirmations.
    const frontendCalls = new Set(actions.filter(isFrontendCall).map((action) => action.id));
    for (const entry of resume) {
      if (frontendCalls.has(entry.interruptId)) continue;
      if (!pending.has(entry.interruptId)) {
        throw new InvalidRequestError(
          `resume: interrupt '${clientText(entry.interruptId)}' is not pending in this thread`,
          {
            statusCode: 409,
          },
        );
      }
      const decision = confirmationDecision(entry);
      if (!decision.approved) refusal ??= decision;
      else approved.push(entry.interruptId);
    }
  }
  // A turn the thread took already (a retry) is acted on again, but recorded once. Messages recorded under the
  // client's ids are known by them (`retriesUserTurn`); only those whose ids cannot be kept are matched by content.
  const byContent = users.every((user) => isMessageId(user.id))
    ? 0
    : await alreadyTaken(conversation, loggedAt[known] ?? -1, contents);
  const unrecorded = users.slice(byContent);

  let act = resume.length > 0 || contents.length > 0 || retriesUserTurn(input, loggedAt);
  if (results.decisions.length > 0) {
    // The answered calls' tools must be known to record their results, even when this input no longer offers them.
    clientTools.set(conversation.id, [...offered, ...results.answeredTools]);
    try {
      await open.decide(results.decisions, { principal: AG_UI_CLIENT_PRINCIPAL });
    } catch (error) {
      if (!AgentError.isInstance(error)) throw error;
      throw new AgUiRunError('unknown_tool_call', `messages: ${error.message}`, { cause: error });
    }
    act = true;
  }
  clientTools.set(conversation.id, offered);
  if (refusal !== undefined) {
    await open.rejectPendingActions(refusal.reason, decidedBy === undefined ? {} : { principal: decidedBy });
  } else if (approved.length > 0 && decidedBy !== undefined) {
    // An explicit approval is the answerer's decision, recorded as theirs; the run then executes the actions (those
    // the input did not answer it approves as a run does, principal `run`).
    const approvals = approved.map((id) => ({ action_id: id, decision: { kind: 'approve' as const } }));
    await open.decide(approvals, { principal: decidedBy });
  }
  if (stateDelta !== undefined) await open.session.update(stateDelta);
  const sharesState = typeof input.state === 'object' && input.state !== null && Object.keys(input.state).length > 0;
  const state = sharesState ? sharedStateContent(open.session.state) : undefined;
  // What the model's messages already hold: a context or shared state of the same text is not recorded again.
  const needed = [
    ...(unrecorded.length === 0 && context !== undefined ? [CONTEXT_OPENING] : []),
    ...(act && state !== undefined ? [SHARED_STATE_OPENING] : []),
  ];
  const held = needed.length === 0 ? new Map<string, string>() : await lastRecordedTexts(conversation.log, needed);
  // The shared state goes to the model only with an input that asks it to act, and only when it differs from the last
  // one its messages hold: a client that syncs state on every keystroke records session-state updates (cheap, not
  // in the model's messages), and the model reads the latest state once, with the next message, result or answer.
  const unseenState = act && state !== undefined && state.text !== held.get(SHARED_STATE_OPENING) ? [state] : [];
  const extendedContent = [...(context === undefined ? [] : [context]), ...unseenState];
  const usedIds = new Set<string>();
  for (const [position, { id, content }] of unrecorded.entries()) {
    // The client's id is the event's when it can be one: a retry sending it again is then known by it.
    const ownId = isMessageId(id) && !usedIds.has(id) && conversation.log.indexOf(id) < 0;
    if (ownId) usedIds.add(id);
    await conversation.sendMessage(
      { role: 'user', content, thinking_blocks: [] },
      { run: false, ...(ownId ? { id } : {}), ...(position === unrecorded.length - 1 ? { extendedContent } : {}) },
    );
  }
  if (unrecorded.length === 0) {
    // No user message to carry them: a user message of no text of its own does, with only what the model has not
    // seen yet (a context other than the last one recorded, the shared state as above).
    const unseen = [
      ...(context === undefined || context.text === held.get(CONTEXT_OPENING) ? [] : [context]),
      ...unseenState,
    ];
    if (unseen.length > 0) {
      await conversation.sendMessage(
        { role: 'user', content: [], thinking_blocks: [] },
        { run: false, extendedContent: unseen },
      );
    }
  }
  return act;
}

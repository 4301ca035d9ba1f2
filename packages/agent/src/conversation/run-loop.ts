import { type ConversationErrorEvent, createEvent } from '@x/events';
import { SandboxUnavailableError } from '../sandbox/sandbox-unavailable-error.js';
import { maskErrorChain } from '../secrets/internal/mask-error.js';
import { traceAgentRun } from '../telemetry/index.js';
import type { RunOptions, RunResult } from './conversation-options.js';
import { ConversationRunError } from './errors/conversation-run-error.js';
import { EventLoopTurns } from './event-loop-turns.js';
import { confirmPendingActions, waitsForPerson } from './pending-decisions.js';
import { preModelCallGuard } from './pre-model-call-guard.js';
import { recordInterrupt } from './record-interrupt.js';
import { pause } from './run-control.js';
import type { RunHost } from './run-host.js';
import { recordRunEnded, recordRunStarted } from './run-lifecycle.js';

/**
 * The run loop of reference §8.3. Each iteration: stop if paused, stuck or finished; nudge or stop on
 * stuck patterns; implicitly confirm waiting actions; one agent step; stop when waiting for
 * confirmation or at the iteration limit (status error + ConversationErrorEvent MaxIterationsReached,
 * without throwing, as the reference). An abort of `options.signal` (an interrupt) stops the model call and
 * the tools, and is recorded as the reference records a cancelled run (status paused, InterruptEvent), not
 * thrown. Any other failure becomes a ConversationErrorEvent and the error status, and is thrown as
 * ConversationRunError (a `SandboxUnavailableError` as itself).
 */
/** Steps between base_state.json checkpoints during a run. */
export const CHECKPOINT_EVERY_STEPS = 25;

export function runLoop(host: RunHost, options: RunOptions, leaseSignal?: AbortSignal): Promise<RunResult> {
  const run = { conversationId: host.conversation.id, llm: host.conversation.agent.llm };
  return traceAgentRun(run, () => loop(host, options, leaseSignal));
}

/**
 * `leaseSignal` aborts when the run's lease is lost (taken over): the model call and the tools see it with the
 * interrupt, and the run ends with the lease's `LeaseLostError`, recording nothing (another owner has the log).
 */
async function loop(host: RunHost, options: RunOptions, leaseSignal: AbortSignal | undefined): Promise<RunResult> {
  const maxIterations = options.maxIterations ?? host.state().max_iterations;
  let iterations = 0;
  let reachedIterationLimit = false;
  const { signal } = options;
  const stepSignal =
    leaseSignal === undefined ? signal : signal === undefined ? leaseSignal : AbortSignal.any([signal, leaseSignal]);
  const assertLeaseHeld = (): void => {
    if (leaseSignal?.aborted) throw leaseSignal.reason;
  };
  let interrupted = false;
  // Each run's start and end are in the log, with the agent's name (a lost lease records nothing: the log
  // belongs to the new owner).
  let runId: string | undefined;
  let failure: ConversationRunError | undefined;
  let stoppedBeforeModelCall: string | undefined;
  try {
    runId = await recordRunStarted(host);
    const status = host.state().execution_status;
    if (status === 'idle' || status === 'paused' || status === 'error' || status === 'stuck') {
      await host.setStatus('running');
    }
    // The files as the run finds them (edited by hand, or by `executeTool`), recorded at HEAD if they changed.
    await host.captureWorkspace?.();
    const turns = new EventLoopTurns();
    let firstPass = true;
    while (true) {
      // Between steps the run lets the event loop turn now and then (see EventLoopTurns): without I/O it would
      // otherwise hold the thread to its end. A pause or interrupt asked meanwhile (from a timer) is seen below.
      if (firstPass) firstPass = false;
      else await turns.between();
      host.assertOpen();
      assertLeaseHeld();
      if (signal?.aborted) {
        interrupted = true;
        break;
      }
      await host.settle();
      const current = host.state().execution_status;
      if (current === 'paused' || current === 'stuck') break;
      if (current === 'finished') {
        // A blocking Stop hook keeps the agent going, with its feedback as the next message (reference).
        if (host.hooks !== undefined && (await continuesAfterStopHooks(host))) continue;
        break;
      }

      const detector = host.stuckDetector;
      if (detector !== undefined && host.state().stuck_detection) {
        const recent = host.recentEvents();
        const nudge = detector.actionErrorNudge(recent);
        if (nudge !== null) {
          await host.emit(
            createEvent('MessageEvent', {
              source: 'environment',
              llm_message: { role: 'user', content: [{ type: 'text', text: nudge.text }] },
            }),
          );
        } else if (detector.isStuck(recent) !== null) {
          await host.setStatus('stuck');
          continue;
        }
      }
      await confirmPendingActions(host);

      if ((await host.popBlockedMessage(host.state().last_user_message_id)) !== undefined) {
        // A UserPromptSubmit hook blocked the last message: it never reaches the model (reference).
        await host.setStatus('finished');
      } else {
        const verdict = await preModelCallGuard(host);
        if (!verdict.proceed) {
          stoppedBeforeModelCall = verdict.reason;
          break;
        }
        // A pause since the loop looked (while it approved the waiting actions, asked the hooks or the budget): the
        // step would execute the actions it approved. They stay pending, approved, and the next run executes them.
        await host.settle();
        if (host.takePauseRequest?.()) {
          // Asked for while the run still waited for confirmation, when `pause()` alone records nothing: now.
          await pause({ state: () => host.state(), emit: (event) => host.emit(event), checkpointUnlessRunning: noop });
        }
        if (host.state().execution_status === 'paused') break;
        const lastUserMessage = host.state().last_user_message_id;
        await host.conversation.agent.step(host.stepContext(stepSignal));
        // A message sent while the model was answering came after its request: when that answer finished the
        // run, the model never saw the message. The run goes on to answer it rather than leave it unanswered.
        if (host.state().execution_status === 'finished' && host.state().last_user_message_id !== lastUserMessage) {
          await host.setStatus('running');
        }
      }
      iterations += 1;
      await host.captureWorkspace?.();
      assertLeaseHeld();
      // A tool the abort cut short has answered (the terminal reports the kill): stop before anything else.
      if (signal?.aborted) {
        interrupted = true;
        break;
      }
      // The log is the source of truth; base_state.json only saves resuming from folding the whole
      // log, so it is refreshed every few steps (and when the run ends) rather than after each one.
      if (iterations % CHECKPOINT_EVERY_STEPS === 0) await host.checkpoint();

      if (host.state().execution_status === 'waiting_for_confirmation' && (await waitsForPerson(host))) break;
      if (iterations >= maxIterations) {
        if (host.state().execution_status !== 'finished') {
          reachedIterationLimit = true;
          await host.setStatus('error');
          await host.emit(
            createEvent('ConversationErrorEvent', {
              source: 'environment',
              code: 'MaxIterationsReached',
              detail: `Agent reached maximum iterations limit (${maxIterations}).`,
            }),
          );
        }
        break;
      }
    }
    if (interrupted) await recordInterrupt(host);
  } catch (error) {
    if (leaseSignal?.aborted) {
      await host.checkpoint().catch(() => undefined);
      throw leaseSignal.reason;
    }
    // Whatever the abort made fail (the model call, a tool) is the interrupt, not a crash.
    if (signal?.aborted) {
      interrupted = true;
      await recordInterrupt(host);
    } else {
      failure = await recordFailure(host, error);
    }
  }
  const result: RunResult = { status: host.state().execution_status, iterations, reachedIterationLimit };
  if (stoppedBeforeModelCall !== undefined) result.stoppedBeforeModelCall = stoppedBeforeModelCall;
  if (interrupted) result.interrupted = true;
  try {
    if (runId !== undefined) await recordRunEnded(host, runId, result);
  } catch (error) {
    // After a failure the store may be what failed: the failure is what the caller must hear about.
    if (failure === undefined) throw error;
  } finally {
    await host.checkpoint().catch(() => undefined);
  }
  // A host without a sandbox (found where a process first started) is recorded as any failure, and thrown as
  // itself: the error callers already handle from a run that could not start.
  if (failure !== undefined) throw SandboxUnavailableError.isInstance(failure.cause) ? failure.cause : failure;
  return result;
}

const noop = async (): Promise<void> => {};

async function continuesAfterStopHooks(host: RunHost): Promise<boolean> {
  const verdict = await host.hooks!.stop('agent_finished');
  if (verdict.shouldStop) return false;
  if (verdict.feedback !== undefined) await host.emit(verdict.feedback);
  await host.setStatus('running');
  return true;
}

async function recordFailure(host: RunHost, error: unknown): Promise<ConversationRunError> {
  const code = error instanceof Error ? errorCode(error) : 'Error';
  // The error itself is masked (in place, with its causes), not only the event: the thrown ConversationRunError
  // carries it as its cause, and a logger prints the whole chain.
  if (host.mask !== undefined) maskErrorChain(error, (text) => host.mask!(text));
  const raw = error instanceof Error ? error.message : String(error);
  const detail = host.mask?.(raw) ?? raw;
  const errorEvent: ConversationErrorEvent = createEvent('ConversationErrorEvent', {
    source: 'environment',
    code,
    detail,
  });
  try {
    await host.setStatus('error');
    await host.emit(errorEvent);
  } catch {
    // The store itself failed; the error is still reported to the caller below.
  }
  return new ConversationRunError({
    conversationId: host.conversation.id,
    location: host.conversation.location,
    errorEvent,
    cause: error,
  });
}

/** The class name, as the reference's codes are exception class names (LLMRateLimitError, ...). */
function errorCode(error: Error): string {
  if (error.name === 'AbortError') return 'Aborted';
  return error.name && error.name !== 'Error' ? error.name : error.constructor.name;
}

import { type ActionEvent, AGENT_ACTION_CLASSIFICATION, createEvent, type Observation } from '@x/events';
import { findSandboxUnavailable } from '../sandbox/internal/find-sandbox-unavailable.js';
import { maskStrings } from '../secrets/internal/mask-strings.js';
import { traceTool } from '../telemetry/index.js';
import { toolsByName } from '../tools/internal/tools-by-name.js';
import type { Tool } from '../tools/tool.js';
import { ToolExecutionError } from '../tools/tool-execution-error.js';
import type { StepContext } from './step-context.js';

const INTERNAL_CLASSIFICATION = { kind: 'internal', retryable: false, user_action: 'none' } as const;

/**
 * Executes a batch of actions in order (reference §9.5): the batch stops at the first `finish`
 * (later actions are not executed), each result becomes an ObservationEvent, a tool failure an
 * AgentErrorEvent the model can recover from, an action a hook blocked a UserRejectObservation
 * (`rejection_source: "hook"`); an executed `finish` finishes the conversation. A call to a tool the client runs
 * (`executedByClient`) is left pending and the conversation waits for its result. After an abort (interrupt) or a
 * pause no further action starts.
 */
export async function executeActions(
  context: StepContext,
  tools: readonly Tool[],
  actions: readonly ActionEvent[],
): Promise<void> {
  const finishIndex = actions.findIndex((action) => action.tool_name === 'finish');
  const batch = finishIndex === -1 ? actions : actions.slice(0, finishIndex + 1);
  const { byName } = toolsByName(tools);

  let finishBlocked = false;
  let awaitingClient = false;
  for (const action of batch) {
    // Interrupted: the actions not started stay without a result; the run answers them (reference).
    if (context.signal?.aborted) break;
    // Paused (after the model's answer, between two calls, during a hook): the actions not started stay pending, with
    // any decision they were given, and the next run executes them; the status stays `paused`.
    if (await context.paused?.()) return;
    const blockedBy = await context.takeHookBlock?.(action.id);
    if (blockedBy !== undefined) {
      // A PreToolUse hook said no: the model sees a rejection instead of a result (reference).
      await context.emit(
        createEvent('UserRejectObservation', {
          tool_name: action.tool_name,
          tool_call_id: action.tool_call_id,
          action_id: action.id,
          rejection_reason: blockedBy,
          rejection_source: 'hook',
        }),
      );
      if (action.tool_name === 'finish') finishBlocked = true;
      continue;
    }
    const tool = byName.get(action.tool_name);
    if (tool?.executedByClient === true) {
      // The client runs it: the action stays pending until its result comes back as a decision.
      awaitingClient = true;
      continue;
    }
    if (tool === undefined || action.action === undefined) {
      await context.emit(
        createEvent('AgentErrorEvent', {
          tool_name: action.tool_name,
          tool_call_id: action.tool_call_id,
          error: `Tool '${action.tool_name}' not found. Available: [${[...byName.keys()].map((name) => `'${name}'`).join(', ')}]`,
          classification: AGENT_ACTION_CLASSIFICATION,
        }),
      );
      continue;
    }
    await traceTool(action, tool.description, async (span) => {
      try {
        const observation = maskObservation(
          await tool.execute(action.action!, await context.toolContext(action)),
          context,
        );
        const event = createEvent('ObservationEvent', {
          tool_name: action.tool_name,
          tool_call_id: action.tool_call_id,
          observation,
          action_id: action.id,
        });
        span.succeeded(observation, event.id);
        await context.emit(event);
      } catch (error) {
        const message = context.maskSecrets(error instanceof Error ? error.message : String(error));
        const event = createEvent('AgentErrorEvent', {
          tool_name: action.tool_name,
          tool_call_id: action.tool_call_id,
          error: `Error executing tool '${action.tool_name}': ${message}`,
          classification: error instanceof ToolExecutionError ? AGENT_ACTION_CLASSIFICATION : INTERNAL_CLASSIFICATION,
        });
        span.failed(error, event.id, message);
        await context.emit(event);
        // No sandbox is never a tool failure the model works around: the run fails with it (the sandbox is
        // probed on first use, so this is where a host without one hears of it).
        const unavailable = findSandboxUnavailable(error);
        if (unavailable !== undefined) throw unavailable;
      }
    });
  }
  if (context.signal?.aborted) return;
  if (finishIndex !== -1 && !finishBlocked) await context.setStatus('finished');
  else if (awaitingClient) await context.setStatus('waiting_for_confirmation');
}

/** Every string of the observation, not only its text content: any field a tool fills is stored in the event. */
function maskObservation(observation: Observation, context: StepContext): Observation {
  return maskStrings(observation, (text) => context.maskSecrets(text));
}

import { type AnyEvent, createEvent } from '@x/events';
import type { EventLogLike } from '@x/store';
import type { Agent } from '../agent/agent.js';
import type { AgentRoster } from '../handoff/agent-roster.js';
import { TRANSFER_TOOL_NAME } from '../handoff/transfer-tool.js';
import type { LLM } from '../llm/llm.js';
import type { ConversationState } from '../state/conversation-state.js';
import { ToolExecutionError } from '../tools/tool-execution-error.js';
import { pause } from './run-control.js';

/** What passing control and escalating need of a conversation. */
export interface ControlHost {
  roster: AgentRoster;
  state(): ConversationState;
  emit(event: AnyEvent): Promise<void>;
  /** The model `switchLLM` set: a transfer drops it, so the new agent's own model answers. */
  model: { switched?: LLM };
  /** The conversation's log (where a transfer looks for an earlier one of the same response). */
  log: EventLogLike;
  /** Starts the agent's MCP servers and skills (once per agent), recording failures. */
  startExtensions(agent: Agent): Promise<void>;
}

/**
 * Passes control to the agent named `name` (`transfer_to_agent`): recorded as a state update `active_agent`
 * (`{name, reason}`), so the fold, and with it a resume, knows who is in control; the next step is that agent's.
 * `UnknownAgentError` for a name the conversation was not given, `ToolExecutionError` for the agent in control.
 * One handoff per LLM response: a transfer from a call of response `llmResponseId` is a `ToolExecutionError` when
 * the log holds an `active_agent` update after that response's tool calls (read from the log, so a resume between
 * two calls holds to it too; and two providers' responses of the same id in different steps never clash).
 */
export async function transferControl(
  host: ControlHost,
  name: string,
  reason: string,
  llmResponseId?: string,
): Promise<void> {
  const earlier = llmResponseId === undefined ? undefined : await handoffOfResponse(host.log, llmResponseId);
  if (earlier !== undefined) {
    throw new ToolExecutionError(
      TRANSFER_TOOL_NAME,
      `Only one handoff per response is allowed: this response already passed control to '${earlier}', so ` +
        `control stays with it and '${name}' is not called. Transfer again in a later response if needed.`,
    );
  }
  const agent = host.roster.transferTarget(name, host.roster.active(host.state()));
  await host.emit(
    createEvent('ConversationStateUpdateEvent', {
      key: 'active_agent',
      value: reason === '' ? { name } : { name, reason },
    }),
  );
  delete host.model.switched;
  await host.startExtensions(agent);
}

/**
 * The agent an earlier call of response `llmResponseId` passed control to, if one did: an `active_agent` update
 * after the last ActionEvent of that response (a response's actions are all recorded before any of them runs), read
 * back from the end of the log (state updates are on no branch), so only the events of the running step are read.
 */
async function handoffOfResponse(log: EventLogLike, llmResponseId: string): Promise<string | undefined> {
  let handoff: string | undefined;
  for (let index = log.length - 1; index >= 0; index--) {
    const event = await log.get(index).catch(() => undefined);
    if (event === undefined) continue;
    if (event.kind === 'ActionEvent' && event.llm_response_id === llmResponseId) return handoff;
    if (handoff === undefined && event.kind === 'ConversationStateUpdateEvent' && event.key === 'active_agent') {
      const name = (event.value as { name?: unknown } | undefined)?.name;
      handoff = typeof name === 'string' ? name : '';
    }
  }
  return undefined;
}

/**
 * Stops the run for a human (`escalate`, or a sub-agent's escalation reaching its parent): records the state
 * update `escalation` (`{reason, agent?}`, an x key the reference keeps and ignores) and pauses as `pause()` does
 * (PauseEvent, status `paused`), so the run loop stops before its next step and a later `run()` continues.
 */
export async function escalateConversation(host: ControlHost, reason: string, agent?: string): Promise<void> {
  await host.emit(
    createEvent('ConversationStateUpdateEvent', {
      key: 'escalation',
      value: agent === undefined ? { reason } : { reason, agent },
    }),
  );
  await pause({
    state: () => host.state(),
    emit: (event) => host.emit(event),
    checkpointUnlessRunning: async () => {},
  });
}

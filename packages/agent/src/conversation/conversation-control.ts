import { type AnyEvent, createEvent } from '@x/events';
import type { Agent } from '../agent/agent.js';
import type { AgentRoster } from '../handoff/agent-roster.js';
import type { LLM } from '../llm/llm.js';
import type { ConversationState } from '../state/conversation-state.js';
import { pause } from './run-control.js';

/** What passing control and escalating need of a conversation. */
export interface ControlHost {
  roster: AgentRoster;
  state(): ConversationState;
  emit(event: AnyEvent): Promise<void>;
  /** The model `switchLLM` set: a transfer drops it, so the new agent's own model answers. */
  model: { switched?: LLM };
  /** Starts the agent's MCP servers and skills (once per agent), recording failures. */
  startExtensions(agent: Agent): Promise<void>;
}

/**
 * Passes control to the agent named `name` (`transfer_to_agent`): recorded as a state update `active_agent`
 * (`{name, reason}`), so the fold, and with it a resume, knows who is in control; the next step is that agent's.
 * `UnknownAgentError` for a name the conversation was not given, `ToolExecutionError` for the agent in control.
 */
export async function transferControl(host: ControlHost, name: string, reason: string): Promise<void> {
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

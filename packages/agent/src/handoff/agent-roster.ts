import type { Agent } from '../agent/agent.js';
import type { ConversationState } from '../state/conversation-state.js';
import type { Tool } from '../tools/tool.js';
import { ToolExecutionError } from '../tools/tool-execution-error.js';
import { assertUniqueToolNames } from '../tools/tool-names.js';
import { escalateTool } from './escalate-tool.js';
import { InvalidAgentRosterError } from './invalid-agent-roster-error.js';
import { createTransferTool, TRANSFER_TOOL_NAME, type TransferTarget } from './transfer-tool.js';
import { UnknownAgentError } from './unknown-agent-error.js';

export interface AgentRosterOptions {
  /** The agent the conversation was created with (its SystemPromptEvent opens the log). */
  agent: Agent;
  /** The agents control can pass to, by the name `transfer_to_agent` uses. */
  agents?: Readonly<Record<string, Agent>> | undefined;
  /** Whether the agents get `escalate` (the conversation is a sub-agent's). */
  escalate?: boolean | undefined;
}

/**
 * The agents of a conversation and which one is in control. The first agent is named by `agents` when it is one of
 * them, else by its own `name`. The agent in control is the one the `active_agent` state update names (the first
 * agent when none does), so it is a fold of the log: a resume given the same agents continues with it.
 */
export class AgentRoster {
  readonly initial: Agent;
  readonly #byName = new Map<string, Agent>();
  readonly #escalate: boolean;
  readonly #tools = new Map<Agent, readonly Tool[]>();

  constructor(options: AgentRosterOptions) {
    this.initial = options.agent;
    this.#escalate = options.escalate ?? false;
    for (const [name, agent] of Object.entries(options.agents ?? {})) {
      if (name.trim() === '') throw new InvalidAgentRosterError('an agent has an empty name');
      this.#byName.set(name, agent);
    }
    if (![...this.#byName.values()].includes(options.agent)) {
      const taken = this.#byName.get(options.agent.name);
      if (taken !== undefined) {
        throw new InvalidAgentRosterError(
          `'${options.agent.name}' names another agent than ConversationOptions.agent, which is named '${options.agent.name}' ` +
            '(give the agent another name, or list it in agents under the name to use)',
        );
      }
      this.#byName.set(options.agent.name, options.agent);
    }
    // Every agent's own tools must leave room for the ones the conversation adds.
    for (const agent of this.agents) assertUniqueToolNames([...agent.tools, ...this.toolsFor(agent)]);
  }

  /** Whether control can pass at all: more than one agent (one agent listed under several names is still one). */
  get transfers(): boolean {
    return this.agents.length > 1;
  }

  /** Every name `resolve` accepts, in the order given; an agent listed under several names has each of them. */
  get names(): string[] {
    return [...this.#byName.keys()];
  }

  /** Each agent once. */
  get agents(): Agent[] {
    return [...new Set(this.#byName.values())];
  }

  /** The agent named `name`; `UnknownAgentError` when the conversation has none of that name. */
  resolve(name: string, where = 'transfer_to_agent'): Agent {
    const agent = this.#byName.get(name);
    if (agent === undefined) throw new UnknownAgentError(name, this.names, where);
    return agent;
  }

  /**
   * The agent control passes to when `inControl` transfers to `name`: `UnknownAgentError` for a name the conversation
   * was not given, `ToolExecutionError` (the model can pick another) for `inControl` itself, under any of its names:
   * a transfer to itself would only record a hand-over that did not happen (and drop a model `switchLLM` set).
   */
  transferTarget(name: string, inControl: Agent): Agent {
    const agent = this.resolve(name);
    if (agent !== inControl) return agent;
    const others = this.agents.filter((candidate) => candidate !== inControl).map((other) => `'${this.nameOf(other)}'`);
    throw new ToolExecutionError(
      TRANSFER_TOOL_NAME,
      `'${name}' is the agent in control ('${this.nameOf(agent)}'), so control stays with it` +
        (others.length === 0
          ? '; the conversation has no other agent.'
          : `; transfer to another: ${others.join(', ')}.`),
    );
  }

  /** The name of `agent` here (the first it is listed under). */
  nameOf(agent: Agent): string {
    for (const [name, candidate] of this.#byName) if (candidate === agent) return name;
    return agent.name;
  }

  /** The agent in control in `state`. */
  active(state: ConversationState): Agent {
    const name = state.active_agent?.name;
    return name === undefined ? this.initial : this.resolve(name, `Conversation ${state.id}: active_agent`);
  }

  /** Every tool name of every agent: its own tools and the ones the conversation adds. */
  toolNames(): ReadonlySet<string> {
    return new Set(this.agents.flatMap((agent) => [...agent.tools, ...this.toolsFor(agent)]).map((tool) => tool.name));
  }

  /**
   * The tools the conversation adds to `agent`'s own: `transfer_to_agent` (listing each other agent once, under its
   * name here), `escalate`. The model picks an agent, not a name: an agent listed under several names would otherwise
   * be offered as several, and the agent itself under another of its names.
   */
  toolsFor(agent: Agent): readonly Tool[] {
    let tools = this.#tools.get(agent);
    if (tools === undefined) {
      const others: TransferTarget[] = this.agents
        .filter((candidate) => candidate !== agent)
        .map((candidate) => ({ name: this.nameOf(candidate), description: candidate.description }));
      const [first, ...rest] = others;
      tools = Object.freeze([
        ...(first === undefined ? [] : [createTransferTool([first, ...rest])]),
        ...(this.#escalate ? [escalateTool] : []),
      ]);
      this.#tools.set(agent, tools);
    }
    return tools;
  }
}

import { createEvent } from '@x/events';
import type { StepContext } from '../agent/step-context.js';
import type { Tool, ToolConversation } from '../tools/tool.js';
import { type ControlHost, escalateConversation, transferControl } from './conversation-control.js';
import { conversationFiles } from './conversation-files.js';
import type { ConversationParts, PartsOwner } from './conversation-parts.js';
import type { ToolRunner } from './execute-tool.js';
import { recordResponse } from './record-response.js';
import { startExtensions } from './start-extensions.js';
import { createStepContext } from './step-context-factory.js';

/** The context of one agent step of a conversation (`signal`: the run's interrupt and lease). */
export function conversationStepContext(
  owner: PartsOwner,
  parts: ConversationParts,
  signal: AbortSignal | undefined,
): StepContext {
  const { events } = parts;
  // Held for the step's next event where the log can write both in one round: alone, any `appendMany`; shared
  // (leases), one that lands the batch at the index this instance expects, fenced, in one atomic write
  // (`fencesAppends`: PostgreSQL's one INSERT, so a step costs two commits, not three).
  const { log } = owner;
  const hold = log.appendMany !== undefined && (!parts.ownership.shared || log.fencesAppends === true);
  return createStepContext({
    conversationId: owner.id,
    workspace: owner.workspace,
    state: () => owner.state,
    view: () => owner.view(),
    emit: (event) => parts.extensions.emitWithHooks(event),
    publish: (event) => events.publish(event),
    setStatus: (status) => events.setStatus(status),
    // Blocks live in the state (set by this process's hooks, or before a restart, or by the reference).
    takeHookBlock: (id: string) => parts.blocks.popIfAny('blocked_actions', id),
    recordResponse: async (llm, response) => {
      await parts.budget.noteResponse(llm, response);
      await recordResponse(events, { llm, response, hold });
    },
    pendingActions: () => owner.pendingActions(),
    secrets: parts.secrets,
    analyzer: parts.security.analyzer,
    signal,
    sandbox: () => parts.sandbox.get(),
    toolConversation: toolConversation(owner, parts),
    files: conversationFiles(owner.store, owner.directory),
    llm: () => parts.model.switched,
    conversationTools: [...parts.roster.toolsFor(owner.agent), ...(parts.options.clientTools?.() ?? [])],
    // Once control was transferred (even back), the agent in control sends its own prompt: which agent opened the
    // log is not known across processes (a resume may be given any of the agents as `agent`).
    ownSystemPrompt: owner.state.active_agent !== undefined,
    ...(parts.options.approvalRules === undefined ? {} : { approvalRules: parts.options.approvalRules }),
  });
}

/** What `transfer_to_agent` and `escalate` change of the conversation. */
function controlHost(owner: PartsOwner, parts: ConversationParts): ControlHost {
  return {
    roster: parts.roster,
    state: () => owner.state,
    emit: (event) => parts.events.emit(event),
    model: parts.model,
    startExtensions: (agent) =>
      startExtensions(agent, owner.workspace, (event) => parts.events.emit(event), parts.sandbox),
  };
}

/** The conversation as tools see it (the delegate tool's sub-agents, `recall`). */
function toolConversation(owner: PartsOwner, parts: ConversationParts): ToolConversation {
  const { events } = parts;
  return {
    id: owner.id,
    store: owner.store,
    directory: owner.directory,
    persistenceDir: parts.persistenceDir,
    workspace: owner.workspace,
    get llm() {
      return parts.model.switched ?? owner.agent.llm;
    },
    get confirmationPolicy() {
      return owner.state.confirmation_policy;
    },
    recordUsage: async (usageId, metrics) => {
      const stats = { usage_to_metrics: { ...events.latestStats().usage_to_metrics, [usageId]: metrics } };
      await events.emit(createEvent('ConversationStateUpdateEvent', { key: 'stats', value: stats }));
    },
    activeBranch: () => owner.activeBranch(),
    budgetRemaining: () => parts.budget.remaining(),
    sandboxPolicy: parts.sandbox.policy,
    session: parts.session,
    sandbox: () => parts.sandbox.get(),
    transferControl: (name, reason) => transferControl(controlHost(owner, parts), name, reason),
    escalate: (reason, agent) => escalateConversation(controlHost(owner, parts), reason, agent),
  };
}

/** The tools the agent in control calls: its own, and the ones the roster gives it (transfer, escalate). */
export function toolsInControl(owner: PartsOwner, parts: ConversationParts): readonly Tool[] {
  return [...owner.agent.tools, ...parts.roster.toolsFor(owner.agent)];
}

/** What `executeTool` needs: the agent's tools, a step context with no run signal, the conversation's events. */
export function conversationToolRunner(owner: PartsOwner, parts: ConversationParts): ToolRunner {
  return {
    tools: toolsInControl(owner, parts),
    stepContext: () => conversationStepContext(owner, parts, undefined),
    watch: (listener) => parts.events.subscribe(listener),
    captureWorkspace: () => parts.checkpoints.capture(),
  };
}

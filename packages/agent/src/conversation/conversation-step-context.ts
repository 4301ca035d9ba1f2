import { createEvent } from '@x/events';
import type { StepContext } from '../agent/step-context.js';
import type { LLM, LLMResponse } from '../llm/llm.js';
import { checkToolUsageId } from '../llm/usage-id.js';
import type { Tool, ToolConversation } from '../tools/tool.js';
import { type ControlHost, escalateConversation, transferControl } from './conversation-control.js';
import { conversationFiles } from './conversation-files.js';
import type { ConversationParts, PartsOwner } from './conversation-parts.js';
import type { ToolRunner } from './execute-tool.js';
import { recordResponse } from './record-response.js';
import { startExtensions } from './start-extensions.js';
import { createStepContext } from './step-context-factory.js';

/** What a step context captured when it was built: the next step reuses it while all of these are the same. */
interface StepContextKey {
  readonly owner: PartsOwner;
  readonly signal: AbortSignal | undefined;
  readonly hold: boolean;
  readonly analyzer: unknown;
  readonly conversationTools: readonly Tool[];
  readonly ownSystemPrompt: boolean;
  /** A run's step: no action starts once the conversation is paused (not so for `executeTool`). */
  readonly inRun: boolean;
}

/**
 * The last step context of each conversation. Building one made ~40 closures (and the tool conversation's) at
 * every step, young garbage the collector had to copy whenever a scavenge fell inside a step; every value it
 * holds is read through `owner` and `parts` when used, except the few captured in its key.
 */
const lastContexts = new WeakMap<ConversationParts, { key: StepContextKey; context: StepContext }>();

/**
 * The context of one agent step of a conversation (`signal`: the run's interrupt and lease; `inRun`: a step of the run
 * loop, which a pause stops before its next action).
 */
export function conversationStepContext(
  owner: PartsOwner,
  parts: ConversationParts,
  signal: AbortSignal | undefined,
  inRun = false,
): StepContext {
  // Held for the step's next event where the log can write both in one round: alone, any `appendMany`; shared
  // (leases), one that lands the batch at the index this instance expects, fenced, in one atomic write
  // (`fencesAppends`: PostgreSQL's one INSERT, so a step costs two commits, not three).
  const { log } = owner;
  const key: StepContextKey = {
    owner,
    signal,
    hold: log.appendMany !== undefined && (!parts.ownership.shared || log.fencesAppends === true),
    analyzer: parts.security.analyzer,
    conversationTools: conversationToolsOf(owner, parts),
    // Once control was transferred (even back), the agent in control sends its own prompt: which agent opened the
    // log is not known across processes (a resume may be given any of the agents as `agent`).
    ownSystemPrompt: owner.state.active_agent !== undefined,
    inRun,
  };
  const last = lastContexts.get(parts);
  if (last !== undefined && sameKey(last.key, key)) return last.context;
  const context = buildStepContext(owner, parts, key);
  lastContexts.set(parts, { key, context });
  return context;
}

/** The tools the conversation adds for a step (`clientTools` is asked at every step, as before). */
function conversationToolsOf(owner: PartsOwner, parts: ConversationParts): readonly Tool[] {
  const roster = parts.roster.toolsFor(owner.agent);
  const client = parts.options.clientTools?.() ?? [];
  return client.length === 0 ? roster : [...roster, ...client];
}

function sameKey(left: StepContextKey, right: StepContextKey): boolean {
  return (
    left.owner === right.owner &&
    left.signal === right.signal &&
    left.hold === right.hold &&
    left.analyzer === right.analyzer &&
    left.ownSystemPrompt === right.ownSystemPrompt &&
    left.inRun === right.inRun &&
    sameTools(left.conversationTools, right.conversationTools)
  );
}

function sameTools(left: readonly Tool[], right: readonly Tool[]): boolean {
  if (left === right) return true;
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}

function buildStepContext(owner: PartsOwner, parts: ConversationParts, key: StepContextKey): StepContext {
  const { events } = parts;
  const { hold, signal } = key;
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
    conversationTools: key.conversationTools,
    ownSystemPrompt: key.ownSystemPrompt,
    ...(parts.options.approvalRules === undefined ? {} : { approvalRules: parts.options.approvalRules }),
    // The pause's events are queued when `pause()` returns: once they are applied the state says so.
    ...(key.inRun ? { paused: () => events.settled().then(() => owner.state.execution_status === 'paused') } : {}),
  });
}

/** What `transfer_to_agent` and `escalate` change of the conversation. */
function controlHost(owner: PartsOwner, parts: ConversationParts): ControlHost {
  return {
    roster: parts.roster,
    state: () => owner.state,
    emit: (event) => parts.events.emit(event),
    model: parts.model,
    log: owner.log,
    startExtensions: (agent) =>
      startExtensions(agent, owner.workspace, (event) => parts.events.emit(event), parts.sandbox),
  };
}

/**
 * The usage ids the conversation's own models spend under: every agent's that control can pass to (its LLM's and its
 * condenser's), the model `switchLLM` set, and the models of side calls (`recordSideResponse`).
 */
function ownUsageIds(parts: ConversationParts): string[] {
  const switched = parts.model.switched === undefined ? [] : [parts.model.switched.usageId];
  const agents = parts.roster.agents.flatMap((agent) => agent.usageIds());
  return [...new Set([...switched, ...agents, ...parts.sideUsageIds])];
}

/**
 * Records the spending of a side call (`askAgent`, `generateTitle`): its model may be one the caller passed for the
 * call only (a cheaper title model), held nowhere else, so its usage id is kept as one of the conversation's own,
 * lest a tool's record under it replace that spending.
 */
export function recordSideResponse(parts: ConversationParts, llm: LLM, response: LLMResponse): Promise<void> {
  parts.sideUsageIds.add(llm.usageId);
  return recordResponse(parts.events, { llm, response, hold: false });
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
      checkToolUsageId(usageId, ownUsageIds(parts));
      const stats = { usage_to_metrics: { ...events.latestStats().usage_to_metrics, [usageId]: metrics } };
      await events.emit(createEvent('ConversationStateUpdateEvent', { key: 'stats', value: stats }));
    },
    activeBranch: () => owner.activeBranch(),
    budgetRemaining: () => parts.budget.remaining(),
    sandboxPolicy: parts.sandbox.policy,
    session: parts.session,
    sandbox: () => parts.sandbox.get(),
    transferControl: (name, reason, options) =>
      transferControl(controlHost(owner, parts), name, reason, options?.llmResponseId),
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

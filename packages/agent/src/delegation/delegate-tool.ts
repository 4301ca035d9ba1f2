import type { KeyObject } from 'node:crypto';
import type { ActionEvent } from '@x/events';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { spendOf } from '../budgets/index.js';
import { Conversation } from '../conversation/conversation.js';
import type { HookConfigInput } from '../hooks/hook-config.js';
import type { LLM } from '../llm/llm.js';
import type { MetricsSnapshot } from '../llm/metrics.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { lendSandbox, type SandboxOpener } from '../sandboxing/sandbox-opener.js';
import { withAgentName } from '../telemetry/index.js';
import { defaultTools } from '../tools/default-tools.js';
import { defineTool, type Tool, type ToolConversation, type ToolResult } from '../tools/tool.js';
import { agentFinalResponse } from './final-response.js';
import { combinedSnapshot } from './internal/combined-snapshot.js';
import { prefixedStore } from './internal/prefixed-store.js';
import { addRemoteUsage, remoteAnswerOf } from './internal/remote-spend.js';
import { isRemoteSubAgentType, type RemoteSubAgent, type RemoteSubAgentType } from './remote-sub-agent.js';
import { subConversationsDirectory } from './sub-conversations.js';

/** A kind of sub-agent the model may spawn (`agent_types`). */
export interface SubAgentType {
  /** Shown to the model in the tool description. */
  description?: string;
  /** Builds the child's agent (its own tools and prompt) on the parent's model. */
  createAgent(llm: LLM): Agent;
  /** Hooks of the child conversation (children do not inherit the parent's). */
  hooks?: HookConfigInput;
  maxIterationsPerRun?: number;
  /**
   * An Ed25519 private key that signs the child's events (each sub-agent may have its own identity); the child's
   * agent's own `signingKey` when not given. Children do not inherit the parent's key.
   */
  signingKey?: KeyObject;
}

export interface DelegateToolOptions {
  /**
   * Sub-agent types by name; `default` replaces the general-purpose agent (terminal, file editor). A remote type
   * (`createA2aSubAgentType`) spawns a connection to a remote agent instead of a child conversation.
   */
  agentTypes?: Readonly<Record<string, SubAgentType | RemoteSubAgentType>>;
  /** Most sub-agents one conversation may hold. Default 5 (reference). */
  maxChildren?: number;
  /** Asked when a child waits for confirmation; default approves (the reference's default). */
  confirm?(agentId: string, pending: readonly ActionEvent[]): boolean | Promise<boolean>;
  /** Called for each child conversation when it is created (to watch its events, for example). */
  onSubConversation?(child: { agentId: string; agentType: string; conversation: Conversation; parentId: string }): void;
}

export const delegateParameters = z.object({
  command: z.enum(['spawn', 'delegate']).describe('The commands to run. Allowed options are: `spawn`, `delegate`.'),
  ids: z
    .array(z.string())
    .optional()
    .describe('Required parameter of `spawn` command. List of identifiers to initialize sub-agents with.'),
  agent_types: z
    .array(z.string())
    .optional()
    .describe(
      'Optional parameter of `spawn` command. List of agent types for each ID. If omitted or blank for an ID, ' +
        'the default general-purpose agent is used.',
    ),
  tasks: z
    .record(z.string(), z.string())
    .optional()
    .describe(
      'Required parameter of `delegate` command. Dictionary mapping sub-agent identifiers to task descriptions.',
    ),
});
export type DelegateAction = z.output<typeof delegateParameters>;

const defaultAgentType: SubAgentType = {
  description: 'General-purpose agent with a terminal and a file editor.',
  createAgent: (llm) => new Agent({ llm, tools: defaultTools() }),
};

/**
 * `delegate` (reference DelegateTool): `spawn` creates named child conversations, each with its own agent
 * and tools, persisted beside the parent (`<parent>/subagents/<child id>/`); `delegate` sends each a task,
 * runs them in parallel and returns their final answers as one observation. A child that fails is reported
 * in that observation (which is then an error) and the parent goes on.
 */
export function createDelegateTool(options: DelegateToolOptions = {}): Tool<DelegateAction> {
  // A Map: the model names the type, and one named `constructor` or `toString` is no type (an object would answer
  // Object.prototype's member of that name).
  const types = new Map<string, SubAgentType | RemoteSubAgentType>([
    ['default', defaultAgentType],
    ...Object.entries(options.agentTypes ?? {}),
  ]);
  const maxChildren = options.maxChildren ?? 5;
  const children = new Map<string, Map<string, Child>>();
  /** What each remote sub-agent reported it spent, by parent id then sub-agent id (kept across a respawn). */
  const remoteSpend = new Map<string, Map<string, MetricsSnapshot>>();

  const spawn = async (parent: ToolConversation, action: DelegateAction): Promise<ToolResult> => {
    const ids = action.ids ?? [];
    if (ids.length === 0) return failure('At least one ID is required for spawn action');
    const agentTypes = action.agent_types ?? [];
    if (agentTypes.length > ids.length) {
      return failure(`agent_types length (${agentTypes.length}) cannot exceed ids length (${ids.length})`);
    }
    const resolved = ids.map((_, index) => agentTypes[index]?.trim() || 'default');
    const unknown = resolved.filter((name) => !types.has(name));
    if (unknown.length > 0) {
      return failure(`Unknown agent type(s): ${unknown.join(', ')}. Available: ${[...types.keys()].join(', ')}`);
    }
    const mine = children.get(parent.id) ?? new Map<string, Child>();
    const added = new Set(ids.filter((id) => !mine.has(id)));
    if (mine.size + added.size > maxChildren) {
      return failure(`Cannot spawn ${ids.length} agents. Already have ${mine.size} agents, maximum is ${maxChildren}`);
    }
    const directory = subConversationsDirectory(parent.directory);
    const store = prefixedStore(parent.store, directory);
    // As the reference, a spawn makes every sub-agent it names or none: one that cannot be made closes those made
    // before it, and the sub-agents already there (an id spawned again included) stay as they were.
    const created: Child[] = [];
    try {
      for (const name of resolved) created.push(await createChild(parent, types.get(name)!, { directory, store }));
    } catch (error) {
      await Promise.all(created.map((child) => closeChild(child)));
      const failed = created.length;
      const reason = error instanceof Error ? error.message : String(error);
      return failure(`Could not spawn ${ids[failed]} (${resolved[failed]}): ${reason}`);
    }
    const current = children.get(parent.id) ?? mine;
    for (const [index, id] of ids.entries()) {
      const child = created[index]!;
      await closeChild(current.get(id));
      current.set(id, child);
      if (child instanceof Conversation) {
        options.onSubConversation?.({
          agentId: id,
          agentType: resolved[index]!,
          conversation: child,
          parentId: parent.id,
        });
      }
    }
    children.set(parent.id, current);
    const labels = ids.map((id, index) => `${id} (${resolved[index]})`);
    return { content: `Successfully spawned ${ids.length} sub-agents: ${labels.join(', ')}`, command: 'spawn' };
  };

  const delegate = async (
    parent: ToolConversation,
    action: DelegateAction,
    signal: AbortSignal | undefined,
  ): Promise<ToolResult> => {
    const tasks = Object.entries(action.tasks ?? {});
    if (tasks.length === 0) return failure('at least one task is required for delegate action', 'delegate');
    const mine = children.get(parent.id) ?? new Map<string, Child>();
    const missing = tasks.map(([id]) => id).filter((id) => !mine.has(id));
    if (missing.length > 0) {
      return failure(
        `sub-agents not found: ${missing.join(', ')}. Available agents: ${[...mine.keys()].join(', ')}`,
        'delegate',
      );
    }
    // Local children get a share of the budget left; a remote agent cannot be given one, so it is not asked once
    // the budget is spent, and what its tasks report they spent comes back as `delegate:<id>` (below).
    const local = tasks.map(([id]) => mine.get(id)).filter((child) => child instanceof Conversation);
    await shareBudget(parent, local);
    const remaining = await parent.budgetRemaining?.();
    const spent = remoteSpend.get(parent.id) ?? new Map<string, MetricsSnapshot>();
    remoteSpend.set(parent.id, spent);
    const outcomes: { id: string; answer?: string; escalated?: string; error?: string }[] = await Promise.all(
      tasks.map(async ([id, task]) => {
        const child = mine.get(id)!;
        if (!(child instanceof Conversation) && remaining !== undefined && remaining.remainingUsd <= 0) {
          return { id, error: `Sub-agent ${id} was not asked: the budget is spent` };
        }
        try {
          return { id, ...(await withAgentName(id, () => runChild(id, child, task, signal, spent))) };
        } catch (error) {
          return { id, error: `Sub-agent ${id} failed: ${error instanceof Error ? error.message : String(error)}` };
        }
      }),
    );
    // Each child's spending, as the reference keeps it: the parent's stats get `delegate:<id>` (replaced, since a
    // child's metrics are cumulative).
    for (const [id] of tasks) {
      const child = mine.get(id);
      if (child instanceof Conversation) {
        await parent.recordUsage?.(`delegate:${id}`, combinedSnapshot(child.state.stats));
      } else {
        // A remote agent's spending as its tasks reported it; one that reports nothing is not counted.
        const reported = spent.get(id);
        if (reported !== undefined) await parent.recordUsage?.(`delegate:${id}`, reported);
      }
    }
    const errors = outcomes.filter((outcome) => outcome.error !== undefined).length;
    const lines = outcomes.map((outcome, index) =>
      outcome.error !== undefined
        ? `${index + 1}. Agent ${outcome.id} ERROR: ${outcome.error}`
        : outcome.escalated !== undefined
          ? `${index + 1}. Agent ${outcome.id} ESCALATED: ${outcome.escalated}`
          : `${index + 1}. Agent ${outcome.id}: ${outcome.answer}`,
    );
    // An escalation stops the parent's run too (paused, the reason recorded), for a human to look.
    for (const outcome of outcomes) {
      if (outcome.escalated !== undefined) await parent.escalate?.(outcome.escalated, outcome.id);
    }
    const escalated = outcomes.filter((outcome) => outcome.escalated !== undefined).length;
    const header =
      `Completed delegation of ${tasks.length} tasks${errors > 0 ? ` with ${errors} errors` : ''}` +
      (escalated > 0 ? `; ${escalated} escalated to a human, the run stops here` : '');
    return { content: `${header}\n\nResults:\n${lines.join('\n')}`, is_error: errors > 0, command: 'delegate' };
  };

  const runChild = async (
    id: string,
    child: Child,
    task: string,
    signal: AbortSignal | undefined,
    spent: Map<string, MetricsSnapshot>,
  ): Promise<{ answer: string } | { escalated: string }> => {
    if (!(child instanceof Conversation)) {
      const answer = remoteAnswerOf(await child.send(task, { signal }));
      if (answer.usage !== undefined) spent.set(id, addRemoteUsage(spent.get(id), answer.usage));
      return { answer: answer.text };
    }
    await child.sendMessage(task);
    const before = child.state.event_count;
    const runOptions = signal === undefined ? {} : { signal };
    await child.run(runOptions);
    while (child.state.execution_status === 'waiting_for_confirmation') {
      const pending = await child.pendingActions();
      if (pending.length === 0) break;
      const approved = options.confirm === undefined ? true : await options.confirm(id, pending);
      if (!approved) await child.rejectPendingActions('User rejected the actions');
      await child.run(runOptions);
    }
    const status = child.state.execution_status;
    const escalation = child.state.escalation;
    if (status === 'paused' && escalation !== undefined && escalation.event_index >= before) {
      return { escalated: escalation.reason };
    }
    if (status === 'error' || status === 'stuck') {
      throw new Error(`it stopped with status '${status}'${await lastErrorDetail(child)}`);
    }
    return { answer: (await agentFinalResponse(child.events())) || 'No response from sub-agent' };
  };

  const typeList = [...types]
    .map(([name, type]) => `- ${name}${type.description === undefined ? '' : `: ${type.description}`}`)
    .join('\n');
  return defineTool({
    name: 'delegate',
    description:
      'Delegation tool for spawning sub-agents and delegating tasks to them.\n\n' +
      '**spawn**: initialize sub-agents with meaningful identifiers (e.g. `research`, `run_tests`) and optional ' +
      'agent types. Each identifier is a separate sub-agent conversation.\n\n' +
      '**delegate**: send tasks to spawned sub-agents and wait for their results. Tasks run in parallel; the ' +
      'observation holds every sub-agent’s final answer. Sub-agents work in the same workspace as you.\n\n' +
      `Available agent types:\n${typeList}`,
    parameters: delegateParameters,
    annotations: { title: 'delegate', readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    execute: async (action, context) => {
      if (context.conversation === undefined) {
        return failure('The delegate tool needs a conversation to spawn sub-agents in.', action.command);
      }
      return action.command === 'spawn'
        ? spawn(context.conversation, action)
        : delegate(context.conversation, action, context.signal);
    },
  });
}

/** A spawned sub-agent: a child conversation, or a connection to a remote agent. */
type Child = Conversation | RemoteSubAgent;

/** Connects to a remote sub-agent, or creates a child conversation beside the parent's. */
async function createChild(
  parent: ToolConversation,
  type: SubAgentType | RemoteSubAgentType,
  place: { directory: string; store: ToolConversation['store'] },
): Promise<Child> {
  if (isRemoteSubAgentType(type)) return type.connect();
  return Conversation.create({
    agent: type.createAgent(parent.llm),
    store: place.store,
    workspace: parent.workspace,
    persistenceDir: `${parent.persistenceDir}/${place.directory}`,
    confirmationPolicy: parent.confirmationPolicy as { kind: 'NeverConfirm' },
    // A child may stop for a human (`escalate`): its run ends, and so does the parent's.
    escalate: true,
    // Children run under the parent's policy, in the parent's sandbox (lent: it ends with the parent).
    ...(parent.sandboxPolicy === undefined ? {} : { sandbox: parent.sandboxPolicy }),
    ...(parent.sandbox === undefined ? {} : { openSandbox: lentSandbox(parent) }),
    ...(type.hooks === undefined ? {} : { hooks: type.hooks }),
    ...(type.maxIterationsPerRun === undefined ? {} : { maxIterationsPerRun: type.maxIterationsPerRun }),
    ...(type.signingKey === undefined ? {} : { signingKey: type.signingKey }),
  });
}

async function closeChild(child: Child | undefined): Promise<void> {
  await child?.close?.();
}

function failure(text: string, command: 'spawn' | 'delegate' = 'spawn'): ToolResult {
  return { content: text, is_error: true, command };
}

async function lastErrorDetail(child: Conversation): Promise<string> {
  let detail = '';
  for await (const event of child.events()) {
    if (event.kind === 'ConversationErrorEvent') detail = `: ${event.code}: ${event.detail}`;
  }
  return detail;
}

/** The parent's sandbox, lent to a child conversation (its close must not end the parent's processes). */
function lentSandbox(parent: ToolConversation): SandboxOpener {
  return async () => lendSandbox(await (parent.sandbox as () => Promise<Sandbox>)());
}

/**
 * Under a money budget, each child may spend what the parent has left (split evenly between children that run
 * at once, so together they cannot pass it), on top of what the child spent before. Their spend comes back into
 * the parent's stats (`delegate:<id>`) when they end, so the parent's next model call sees it.
 */
async function shareBudget(parent: ToolConversation, children: readonly Conversation[]): Promise<void> {
  const remaining = await parent.budgetRemaining?.();
  if (remaining === undefined || children.length === 0) return;
  const share = remaining.remainingUsd / children.length;
  for (const child of children) {
    await child.setBudget({
      maxUsd: spendOf(child.state.stats).spentUsd + share,
      allowUnknownCost: remaining.allowUnknownCost,
    });
  }
}

import { readFileSync } from 'node:fs';
import { type AnyEvent, eventToJson } from '@x/events';
import { type FieldSets, fieldSetProblems, payloadProblems } from '@x/events/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Conversation,
  createDelegateTool,
  createOpenAILLM,
  defineTool,
  InvalidAgentRosterError,
  UnknownAgentError,
} from '../src/index.js';
import { type ScriptedLLMServer, type ScriptedRequestBody, startScriptedLLMServer } from '../src/testing/index.js';
import { type Harness, startHarness } from './support/harness.js';

const sets: FieldSets = JSON.parse(
  readFileSync(new URL('../../events/test/__fixtures__/reference-field-sets.json', import.meta.url), 'utf8'),
);

let harness: Harness;
let billingServer: ScriptedLLMServer | undefined;
afterEach(async () => {
  await billingServer?.close();
  billingServer = undefined;
  await harness?.close();
});

const finish = (message: string) => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });
const transfer = (agent_name: string, reason?: string) => ({
  toolCalls: [{ name: 'transfer_to_agent', arguments: reason === undefined ? { agent_name } : { agent_name, reason } }],
});

function llmOf(server: ScriptedLLMServer, model: string) {
  return createOpenAILLM({ model, baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 2 });
}

/** The system message's text and the tool names of one Chat Completions request. */
function seen(request: ScriptedRequestBody | undefined) {
  const messages = (request?.messages ?? []) as { role: string; content: unknown }[];
  const system = messages.find((message) => message.role === 'system');
  const tools = (request?.tools ?? []) as { function: { name: string; parameters: Record<string, unknown> } }[];
  return {
    system: JSON.stringify(system?.content ?? ''),
    tools: tools.map((tool) => tool.function.name),
    transferNames: (
      tools.find((tool) => tool.function.name === 'transfer_to_agent')?.function.parameters as
        | { properties: { agent_name: { enum: string[] } } }
        | undefined
    )?.properties.agent_name.enum,
  };
}

/** Every event in the reference's field sets (events, and the Action/Observation payloads they carry). */
function referenceProblems(events: readonly AnyEvent[]): string[] {
  return events.flatMap((event) => {
    const json = JSON.parse(JSON.stringify(eventToJson(event))) as Record<string, unknown>;
    const payload = (json.action ?? json.observation) as Record<string, unknown> | undefined;
    return [...fieldSetProblems(sets, json), ...(payload === undefined ? [] : payloadProblems(sets, payload))];
  });
}

async function collect(conversation: Conversation): Promise<AnyEvent[]> {
  const events: AnyEvent[] = [];
  for await (const event of conversation.events()) events.push(event);
  return events;
}

describe('transfer_to_agent', () => {
  async function twoAgents(triageScript: Parameters<typeof startHarness>[0], billingScript: typeof triageScript) {
    harness = await startHarness(triageScript);
    billingServer = await startScriptedLLMServer(billingScript);
    const server = billingServer;
    const agents = () => {
      const triage = new Agent({
        name: 'triage',
        description: 'Sorts requests.',
        llm: llmOf(harness.server, 'triage-model'),
        systemPrompt: 'You are TRIAGE.',
      });
      const billing = new Agent({
        name: 'billing',
        description: 'Handles refunds.',
        llm: llmOf(server, 'billing-model'),
        systemPrompt: 'You are BILLING.',
      });
      return { triage, billing, agents: { triage, billing } };
    };
    return agents;
  }

  it('passes control: the next step calls the other agent’s model with its prompt and tools, recorded in the log', async () => {
    const agents = await twoAgents([transfer('billing', 'a refund')], [finish('Refunded.')]);
    const { triage, agents: roster } = agents();
    const { conversation } = await harness.conversation({ agent: triage, agents: roster });
    await conversation.sendMessage('I want my money back');
    const result = await conversation.run();

    expect(result).toMatchObject({ status: 'finished', agent: 'billing' });
    expect(harness.server.requests).toHaveLength(1);
    expect(billingServer!.requests).toHaveLength(1);
    const first = seen(harness.server.requests[0]);
    expect(first.system).toContain('You are TRIAGE.');
    expect(first.transferNames).toEqual(['billing']);
    const second = seen(billingServer!.requests[0]);
    expect(second.system).toContain('You are BILLING.');
    expect(second.system).not.toContain('TRIAGE');
    expect(second.transferNames).toEqual(['triage']);
    expect(second.tools).toEqual(['finish', 'think', 'transfer_to_agent']);
    // Every tool any agent of the conversation may be offered (what a client's tools must not shadow).
    expect([...conversation.toolNames].sort()).toEqual(['finish', 'think', 'transfer_to_agent']);
    expect(conversation.state.active_agent).toEqual({ name: 'billing', reason: 'a refund' });
    expect(conversation.agent.name).toBe('billing');

    const events = await collect(conversation);
    const update = events.find(
      (event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'active_agent',
    );
    expect(update).toMatchObject({ value: { name: 'billing', reason: 'a refund' } });
    // The run's records name the agent in control when it started and when it ended.
    const runs = events.filter((event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'run');
    expect(runs.map((event) => (event as { value: { phase: string; agent: string } }).value)).toMatchObject([
      { phase: 'started', agent: 'triage' },
      { phase: 'ended', agent: 'billing' },
    ]);
    // The log still opens with the first agent's prompt, which lists the transfer tool it was offered.
    expect(JSON.stringify(events[0])).toContain('You are TRIAGE.');
    expect(JSON.stringify(events[0])).toContain('transfer_to_agent');
    // What was written loads in the reference (the transfer tool is written in its MCP tool shape).
    expect(referenceProblems(events)).toEqual([]);
    await conversation.close();
  });

  it('a resume with the same agents continues with the agent in control; without it, UnknownAgentError', async () => {
    const agents = await twoAgents([transfer('billing')], [{ content: 'Which order?' }, finish('Refunded order 7.')]);
    const first = agents();
    const { conversation } = await harness.conversation({ agent: first.triage, agents: first.agents });
    await conversation.sendMessage('Refund please');
    expect(await conversation.run()).toMatchObject({ status: 'finished', agent: 'billing' });
    await conversation.close();

    const options = {
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
      durability: 'none' as const,
    };
    const lone = agents().triage;
    const refused = await Conversation.resume(conversation.id, { ...options, agent: lone }).catch((error) => error);
    expect(refused).toBeInstanceOf(UnknownAgentError);
    expect(refused).toMatchObject({ agentName: 'billing', known: ['triage'] });
    expect((refused as Error).message).toContain("'billing'");

    const again = agents();
    // `open` resumes an existing id as `resume` does.
    const resumed = await Conversation.open({
      ...options,
      id: conversation.id,
      agent: again.triage,
      agents: again.agents,
    });
    expect(resumed.agent).toBe(again.billing);
    await resumed.sendMessage('Order 7');
    expect(await resumed.run()).toMatchObject({ status: 'finished', agent: 'billing' });
    expect(harness.server.requests).toHaveLength(1);
    expect(billingServer!.requests).toHaveLength(2);
    expect(seen(billingServer!.requests[1]).system).toContain('You are BILLING.');
    await resumed.close();
  });

  it('a name the conversation does not have is an error the model sees, and control stays', async () => {
    const agents = await twoAgents([transfer('nobody'), finish('Stayed.')], []);
    const { triage, agents: roster } = agents();
    const { conversation, events } = await harness.conversation({ agent: triage, agents: roster });
    await conversation.sendMessage('Hand me to nobody');
    expect(await conversation.run()).toMatchObject({ status: 'finished', agent: 'triage' });
    // The arguments name only the others (an enum), so the call is refused with what the model may choose.
    const error = events.find((event) => event.kind === 'AgentErrorEvent');
    expect(error).toMatchObject({ tool_name: 'transfer_to_agent' });
    expect(JSON.stringify(error)).toContain('billing');
    expect(conversation.state.active_agent).toBeUndefined();
    expect(billingServer!.requests).toHaveLength(0);
    await conversation.close();
  });

  it('a transfer to the agent in control under another of its names is an error the model sees; nothing is recorded', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'hand_over', arguments: { to: 'front' } }] },
      { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'front' } }] },
      finish('Stayed.'),
    ]);
    billingServer = await startScriptedLLMServer([]);
    // A tool of the agent's own may pass control by any name (`ToolContext.conversation.transferControl`).
    const handOver = defineTool({
      name: 'hand_over',
      description: 'Passes control by name.',
      parameters: z.object({ to: z.string() }),
      execute: async ({ to }, context) => {
        await context.conversation?.transferControl?.(to, 'by hand');
        return { content: 'handed over' };
      },
    });
    const triage = new Agent({ name: 'triage', llm: llmOf(harness.server, 'triage-model'), tools: [handOver] });
    const billing = new Agent({ name: 'billing', llm: llmOf(billingServer, 'billing-model') });
    const { conversation, events } = await harness.conversation({
      agent: triage,
      agents: { triage, front: triage, billing, refunds: billing },
    });
    await conversation.sendMessage('Hand me to yourself');
    expect(await conversation.run()).toMatchObject({ status: 'finished', agent: 'triage' });
    // Each other agent once: billing is offered under its first name only, triage under none of its own.
    expect(seen(harness.server.requests[0]).transferNames).toEqual(['billing']);
    const errors = events.filter((event) => event.kind === 'AgentErrorEvent');
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ tool_name: 'hand_over' });
    expect(JSON.stringify(errors[0])).toContain("'front' is the agent in control ('triage'), so control stays with it");
    expect(errors[1]).toMatchObject({ tool_name: 'transfer_to_agent' });
    const handedOver = events.some(
      (event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'active_agent',
    );
    expect(handedOver).toBe(false);
    expect(conversation.state.active_agent).toBeUndefined();
    expect(billingServer.requests).toHaveLength(0);
    await conversation.close();
  });

  it('one agent listed under two names is one agent: no transfer tool, no agent in the run result', async () => {
    harness = await startHarness([finish('Done.')]);
    const triage = new Agent({ name: 'triage', llm: llmOf(harness.server, 'triage-model') });
    const { conversation } = await harness.conversation({ agent: triage, agents: { triage, front: triage } });
    await conversation.sendMessage('Hello');
    const result = await conversation.run();
    expect(result.status).toBe('finished');
    expect(result).not.toHaveProperty('agent');
    expect(seen(harness.server.requests[0]).tools).toEqual(['finish', 'think']);
    expect([...conversation.toolNames].sort()).toEqual(['finish', 'think']);
    await conversation.close();
  });

  it('refuses clashing agent names before writing anything (InvalidAgentRosterError)', async () => {
    const agents = await twoAgents([], []);
    const { triage, billing } = agents();
    const error = await harness
      .conversation({ agent: triage, agents: { triage: billing } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidAgentRosterError);
    expect((error as Error).message).toContain("'triage'");
  });
});

describe('escalate', () => {
  it('a sub-agent stops its parent’s run with a reason; a later run continues', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'delegate', arguments: { command: 'spawn', ids: ['worker'] } }] },
      { toolCalls: [{ name: 'delegate', arguments: { command: 'delegate', tasks: { worker: 'Delete prod' } } }] },
      // The sub-agent (on the parent's model) escalates.
      { toolCalls: [{ name: 'escalate', arguments: { reason: 'deleting prod needs a human' } }] },
      // The parent, run again after a human looked.
      finish('Left prod alone.'),
    ]);
    const delegate = createDelegateTool({ agentTypes: { default: { createAgent: (llm) => new Agent({ llm }) } } });
    const { conversation, events } = await harness.conversation({ agent: harness.agent({ tools: [delegate] }) });
    await conversation.sendMessage('Clean up');
    const stopped = await conversation.run();

    expect(stopped).toMatchObject({ status: 'paused', iterations: 2 });
    expect(harness.server.requests).toHaveLength(3);
    expect(seen(harness.server.requests[2]).tools).toContain('escalate');
    expect(seen(harness.server.requests[0]).tools).not.toContain('escalate');
    expect(conversation.state.escalation).toMatchObject({ reason: 'deleting prod needs a human', agent: 'worker' });
    const observation = events.filter((event) => event.kind === 'ObservationEvent').at(-1);
    expect(JSON.stringify(observation)).toContain('Agent worker ESCALATED: deleting prod needs a human');
    expect(events.some((event) => event.kind === 'PauseEvent')).toBe(true);
    // The delegate tool is the reference's DelegateTool, whose models the field-set fixture does not hold.
    const problems = referenceProblems(await collect(conversation));
    expect(problems.filter((problem) => !/Delegate(Action|Observation) has no field set/.test(problem))).toEqual([]);

    const continued = await conversation.run();
    expect(continued).toMatchObject({ status: 'finished' });
    expect(harness.server.requests).toHaveLength(4);
    await conversation.close();
  });
});

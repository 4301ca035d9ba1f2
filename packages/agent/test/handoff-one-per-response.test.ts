import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, createOpenAILLM, defineTool } from '../src/index.js';
import { type ScriptedLLMServer, startScriptedLLMServer } from '../src/testing/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
const servers: ScriptedLLMServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  await harness?.close();
});

const finish = (message: string) => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });

async function agentWith(name: string, script: Parameters<typeof startScriptedLLMServer>[0]) {
  const server = await startScriptedLLMServer(script);
  servers.push(server);
  const llm = createOpenAILLM({ model: `${name}-model`, baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 2 });
  return { server, agent: new Agent({ name, llm, systemPrompt: `You are ${name.toUpperCase()}.` }) };
}

describe('one handoff per response', () => {
  it('of two transfers in one response only the first passes control; the second is an error naming the rule', async () => {
    harness = await startHarness([
      {
        toolCalls: [
          { name: 'transfer_to_agent', arguments: { agent_name: 'billing', reason: 'a refund' } },
          { name: 'transfer_to_agent', arguments: { agent_name: 'shipping', reason: 'a parcel' } },
        ],
      },
    ]);
    const triage = new Agent({
      name: 'triage',
      llm: createOpenAILLM({ model: 'triage-model', baseURL: harness.server.baseURL, apiKey: 'sk-test' }),
    });
    const billing = await agentWith('billing', [finish('Refunded.')]);
    const shipping = await agentWith('shipping', []);
    const { conversation, events } = await harness.conversation({
      agent: triage,
      agents: { triage, billing: billing.agent, shipping: shipping.agent },
    });
    await conversation.sendMessage('Refund me and ship it');
    expect(await conversation.run()).toMatchObject({ status: 'finished', agent: 'billing' });

    const transfers = events.filter(
      (event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'active_agent',
    );
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ value: { name: 'billing', reason: 'a refund' } });
    const errors = events.filter((event) => event.kind === 'AgentErrorEvent');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ tool_name: 'transfer_to_agent' });
    expect(JSON.stringify(errors[0])).toContain('Only one handoff per response is allowed');
    expect(JSON.stringify(errors[0])).toContain("'billing'");
    expect(billing.server.requests).toHaveLength(1);
    expect(shipping.server.requests).toHaveLength(0);
    expect(conversation.state.active_agent).toMatchObject({ name: 'billing' });
    await conversation.close();
  });

  it('a tool of the agent’s own is told its response id, so a handoff of its own counts too', async () => {
    const seenIds: (string | undefined)[] = [];
    const handOver = defineTool({
      name: 'hand_over',
      description: 'Passes control by name.',
      parameters: z.object({ to: z.string() }),
      execute: async ({ to }, context) => {
        seenIds.push(context.llmResponseId);
        await context.conversation?.transferControl?.(to, 'by hand', { llmResponseId: context.llmResponseId });
        return { content: 'handed over' };
      },
    });
    harness = await startHarness([
      {
        toolCalls: [
          { name: 'hand_over', arguments: { to: 'shipping' } },
          { name: 'transfer_to_agent', arguments: { agent_name: 'billing' } },
        ],
      },
    ]);
    const triage = new Agent({
      name: 'triage',
      llm: createOpenAILLM({ model: 'triage-model', baseURL: harness.server.baseURL, apiKey: 'sk-test' }),
      tools: [handOver],
    });
    const billing = await agentWith('billing', []);
    const shipping = await agentWith('shipping', [finish('Shipped.')]);
    const { conversation, events } = await harness.conversation({
      agent: triage,
      agents: { triage, billing: billing.agent, shipping: shipping.agent },
    });
    await conversation.sendMessage('Ship it');
    expect(await conversation.run()).toMatchObject({ status: 'finished', agent: 'shipping' });
    const actions = events.filter((event) => event.kind === 'ActionEvent');
    expect(seenIds).toEqual([actions[0]?.llm_response_id]);
    expect(seenIds[0]).toEqual(expect.any(String));
    const errors = events.filter((event) => event.kind === 'AgentErrorEvent');
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain('Only one handoff per response is allowed');
    expect(billing.server.requests).toHaveLength(0);
    await conversation.close();
  });

  it('a transfer in a later response passes control again', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'billing' } }] },
      finish('Back at triage.'),
    ]);
    const triage = new Agent({
      name: 'triage',
      llm: createOpenAILLM({ model: 'triage-model', baseURL: harness.server.baseURL, apiKey: 'sk-test' }),
    });
    const billing = await agentWith('billing', [
      { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'triage' } }] },
    ]);
    const { conversation, events } = await harness.conversation({
      agent: triage,
      agents: { triage, billing: billing.agent },
    });
    await conversation.sendMessage('Go there and back');
    expect(await conversation.run()).toMatchObject({ status: 'finished', agent: 'triage' });
    expect(events.filter((event) => event.kind === 'AgentErrorEvent')).toHaveLength(0);
    await conversation.close();
  });
});

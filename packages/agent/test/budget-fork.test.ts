import { afterEach, describe, expect, it } from 'vitest';
import { Agent, Conversation, createOpenAILLM, defaultTools } from '../src/index.js';
import type { ScriptedReply } from '../src/testing/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

// $1000 per million tokens: a scripted reply (10 prompt + 5 completion tokens) costs $0.015, and the next call is
// estimated at the last turn's 15 tokens as input: $0.015.
const pricing = { inputPerMillion: 1000, outputPerMillion: 1000 };
const think = (thought: string): ScriptedReply => ({ toolCalls: [{ name: 'think', arguments: { thought } }] });
const finish: ScriptedReply = { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] };

function pricedAgent(h: Harness): Agent {
  const llm = createOpenAILLM({
    model: 'scripted',
    baseURL: h.server.baseURL,
    apiKey: 'sk-test',
    maxRetries: 0,
    pricing,
  });
  return new Agent({ llm, tools: defaultTools() });
}

describe('money budgets across a fork', () => {
  it('a fork with fresh stats gets what is left of the budget, not a new one nor none, and keeps it on resume', async () => {
    harness = await startHarness([think('one'), think('two'), think('three'), finish]);
    const { conversation } = await harness.conversation({ agent: pricedAgent(harness) });
    await conversation.setBudget(0.045);
    await conversation.sendMessage('think a while');
    const first = await conversation.run();
    // Call 1: $0. Call 2: $0.015 + $0.015 ≤ $0.045. Call 3: $0.03 + $0.015 ≤ $0.045. Call 4: $0.045 spent: stopped.
    expect(first.status).toBe('error');
    expect(harness.server.requests).toHaveLength(3);

    const fork = await conversation.fork();
    const status = await fork.budgetStatus();
    expect(status.spentUsd).toBe(0);
    expect(status.budget?.maxUsd).toBeCloseTo(0, 10);
    expect(status.lastStop).toBeNull();
    const forked = await fork.run();
    expect(forked.status).toBe('error');
    expect(forked.stoppedBeforeModelCall).toContain('maximum budget limit');
    expect(harness.server.requests).toHaveLength(3);
    await fork.close();

    const reopened = await Conversation.resume(fork.id, {
      agent: pricedAgent(harness),
      persistenceDir: harness.persistenceDir,
    });
    expect((await reopened.budgetStatus()).budget?.maxUsd).toBeCloseTo(0, 10);
    expect((await reopened.run()).status).toBe('error');
    expect(harness.server.requests).toHaveLength(3);
    await reopened.close();
    await conversation.close();
  });

  it('a fork from an earlier event still counts everything spent; one that keeps the stats keeps the limit', async () => {
    harness = await startHarness([think('one'), think('two'), finish, think('fork'), finish]);
    const { conversation } = await harness.conversation({ agent: pricedAgent(harness) });
    await conversation.setBudget({ maxUsd: 0.1, allowUnknownCost: false });
    await conversation.sendMessage('think a while');
    expect((await conversation.run()).status).toBe('finished');
    expect((await conversation.budgetStatus()).spentUsd).toBeCloseTo(0.045);

    const task = (await conversation.activeBranch()).find((event) => event.kind === 'MessageEvent');
    if (task === undefined) throw new Error('the task message is missing');
    const early = await conversation.fork({ fromEventId: task.id });
    const fresh = await early.budgetStatus();
    expect(fresh.budget).toEqual({ maxUsd: expect.closeTo(0.055, 10), allowUnknownCost: false });

    const kept = await conversation.fork({ resetMetrics: false });
    const keptStatus = await kept.budgetStatus();
    expect(keptStatus.budget?.maxUsd).toBe(0.1);
    expect(keptStatus.spentUsd).toBeCloseTo(0.045);
    await early.close();
    await kept.close();
    await conversation.close();
  });

  it('a fork of a conversation without a budget has none', async () => {
    harness = await startHarness([finish]);
    const { conversation } = await harness.conversation({ agent: pricedAgent(harness) });
    await conversation.sendMessage('finish');
    await conversation.run();
    const fork = await conversation.fork();
    expect((await fork.budgetStatus()).budget).toBeUndefined();
    await fork.close();
    await conversation.close();
  });
});

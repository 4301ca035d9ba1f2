import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent, ConversationErrorEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Agent,
  BUDGET_FILE,
  budgetRecordSchema,
  Conversation,
  createDelegateTool,
  createOpenAILLM,
  defaultTools,
  InvalidBudgetError,
} from '../src/index.js';
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

function pricedAgent(h: Harness, options: { priced?: boolean; delegate?: boolean } = {}): Agent {
  const llm = createOpenAILLM({
    model: 'scripted',
    baseURL: h.server.baseURL,
    apiKey: 'sk-test',
    maxRetries: 0,
    ...(options.priced === false ? {} : { pricing }),
  });
  return new Agent({ llm, tools: [...defaultTools(), ...(options.delegate ? [createDelegateTool()] : [])] });
}

function budgetErrors(events: readonly AnyEvent[]): ConversationErrorEvent[] {
  return events.filter(
    (event): event is ConversationErrorEvent =>
      event.kind === 'ConversationErrorEvent' && event.code === 'MaxBudgetReached',
  );
}

async function budgetRecord(h: Harness, conversation: Conversation) {
  const text = await readFile(join(h.persistenceDir, conversation.directory, BUDGET_FILE), 'utf8');
  return budgetRecordSchema.parse(JSON.parse(text));
}

describe('money budgets', () => {
  it('stops before the call that would pass the budget, records it, holds after a restart, continues when raised', async () => {
    harness = await startHarness([think('one'), think('two'), think('three'), finish]);
    const { conversation, events } = await harness.conversation({ agent: pricedAgent(harness), budget: 0.04 });
    await conversation.sendMessage('think a while');
    const result = await conversation.run();

    // Call 1: $0 spent. Call 2: $0.015 + $0.015 estimated ≤ $0.04. Call 3: $0.03 + $0.015 > $0.04: not made.
    expect(harness.server.requests).toHaveLength(2);
    expect(result.status).toBe('error');
    expect(result.stoppedBeforeModelCall).toContain('maximum budget limit ($0.0400); accumulated cost $0.0300');
    const [stop] = budgetErrors(events);
    expect(stop?.detail).toContain("next call to 'scripted' was estimated at $0.0150");
    const record = await budgetRecord(harness, conversation);
    expect(record).toMatchObject({ max_usd: 0.04, last_stop: { reason: 'limit', scope: 'conversation' } });
    expect(record.last_stop?.spent_usd).toBeCloseTo(0.03);
    expect(record.last_stop?.next_call_estimate_usd).toBeCloseTo(0.015);
    expect(record.last_stop?.error_event_id).toBe(stop?.id);
    await conversation.close();

    // A new Conversation object on the same store: the budget and the spend come back from the files.
    const agent = pricedAgent(harness);
    const reopened = await Conversation.resume(conversation.id, { agent, persistenceDir: harness.persistenceDir });
    expect((await reopened.budgetStatus()).spentUsd).toBeCloseTo(0.03);
    const again = await reopened.run();
    expect(again.status).toBe('error');
    expect(harness.server.requests).toHaveLength(2);

    await reopened.setBudget(1);
    const raised = await reopened.run();
    expect(raised.status).toBe('finished');
    expect(harness.server.requests).toHaveLength(4);
    expect((await reopened.budgetStatus()).spentUsd).toBeCloseTo(0.06);
    await reopened.close();
  });

  it('counts a run budget from the spend when the run starts', async () => {
    harness = await startHarness([think('one'), finish, think('two'), think('three'), finish]);
    const { conversation } = await harness.conversation({ agent: pricedAgent(harness) });
    await conversation.sendMessage('first');
    expect((await conversation.run()).status).toBe('finished');
    await conversation.sendMessage('second');
    // $0.03 already spent; the run may spend $0.02: its first call, then $0.015 + $0.015 > $0.02.
    const result = await conversation.run({ budget: 0.02 });
    expect(result.status).toBe('error');
    expect(harness.server.requests).toHaveLength(3);
    expect(result.stoppedBeforeModelCall).toContain('(run budget)');
    await conversation.close();
  });

  it('stops on a model of unknown cost unless allowed, never counting it as $0', async () => {
    harness = await startHarness([think('one'), finish]);
    const { conversation, events } = await harness.conversation({
      agent: pricedAgent(harness, { priced: false }),
      budget: 5,
    });
    await conversation.sendMessage('go');
    const result = await conversation.run();
    expect(result.status).toBe('error');
    expect(harness.server.requests).toHaveLength(0);
    expect(budgetErrors(events)[0]?.detail).toContain("spend is unknown (model 'scripted' has no known price");
    expect((await budgetRecord(harness, conversation)).last_stop?.reason).toBe('unknown_cost');

    await conversation.setBudget({ maxUsd: 5, allowUnknownCost: true });
    expect((await conversation.run()).status).toBe('finished');
    const status = await conversation.budgetStatus();
    expect(status.unknownCost.usageIds).toEqual(['default']);
    await conversation.close();
  });

  it('treats a priced reply without usage as unknown spend', async () => {
    harness = await startHarness([{ ...think('one'), usage: { prompt_tokens: 0, completion_tokens: 0 } }, finish]);
    const { conversation } = await harness.conversation({ agent: pricedAgent(harness), budget: 5 });
    await conversation.sendMessage('go');
    const result = await conversation.run();
    expect(harness.server.requests).toHaveLength(1);
    expect(result.stoppedBeforeModelCall).toContain('spend is unknown');
    expect((await conversation.budgetStatus()).unknownCost.responses).toHaveLength(1);
    await conversation.close();
  });

  it('gives a sub-agent the parent’s remainder and counts its spend toward the parent’s', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'delegate', arguments: { command: 'spawn', ids: ['worker'] } }] },
      { toolCalls: [{ name: 'delegate', arguments: { command: 'delegate', tasks: { worker: 'think' } } }] },
      think('c1'),
      think('c2'),
      think('c3'),
      think('c4'),
      think('c5'),
      finish,
    ]);
    const { conversation, events } = await harness.conversation({
      agent: pricedAgent(harness, { delegate: true }),
      budget: 0.1,
    });
    await conversation.sendMessage('delegate');
    const result = await conversation.run();
    // Parent: 2 calls ($0.03), so the child may spend $0.07: 4 calls ($0.06), the 5th would pass it. Then the
    // parent has $0.09 spent ($0.06 of it `delegate:worker`), and its next call ($0.015) would pass $0.10.
    expect(harness.server.requests).toHaveLength(6);
    expect(result.status).toBe('error');
    const status = await conversation.budgetStatus();
    expect(status.spentUsd).toBeCloseTo(0.09);
    expect(conversation.state.stats.usage_to_metrics['delegate:worker']?.accumulated_cost).toBeCloseTo(0.06);
    const observation = events.find(
      (event) => event.kind === 'ObservationEvent' && JSON.stringify(event).includes('Sub-agent worker failed'),
    );
    expect(JSON.stringify(observation)).toContain('maximum budget limit ($0.0700)');
    await conversation.close();
  });

  it('refuses a negative or non-numeric budget with a typed error', async () => {
    harness = await startHarness([]);
    await expect(harness.conversation({ agent: pricedAgent(harness), budget: -1 })).rejects.toSatisfy(
      (error) => InvalidBudgetError.isInstance(error) && error.code === 'invalid_budget',
    );
    const { conversation } = await harness.conversation({ agent: pricedAgent(harness) });
    await expect(conversation.setBudget('lots' as unknown as number)).rejects.toThrow(/setBudget: .*"lots"/);
    await expect(conversation.run({ budget: Number.NaN })).rejects.toBeInstanceOf(InvalidBudgetError);
    await conversation.close();
  });
});

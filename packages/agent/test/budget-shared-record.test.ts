// A budget is shared state: another process (a server replica, the CLI) may raise it between runs, and a run's
// own budget must fail closed on an unknown cost as the conversation's does.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, BUDGET_FILE, budgetRecordSchema, createOpenAILLM, defaultTools } from '../src/index.js';
import type { ScriptedReply } from '../src/testing/index.js';
import { effectTool } from './support/approval-tools.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

// $1000 per million tokens: a scripted reply (10 prompt + 5 completion tokens) costs $0.015.
const pricing = { inputPerMillion: 1000, outputPerMillion: 1000 };
const think = (thought: string): ScriptedReply => ({ toolCalls: [{ name: 'think', arguments: { thought } }] });
const finish: ScriptedReply = { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] };

function agentOf(h: Harness, priced: boolean): Agent {
  const llm = createOpenAILLM({
    model: 'scripted',
    baseURL: h.server.baseURL,
    apiKey: 'sk-test',
    maxRetries: 0,
    ...(priced ? { pricing } : {}),
  });
  return new Agent({ llm, tools: [...defaultTools(), effectTool] });
}

describe('a budget shared with other processes', () => {
  it('reads a budget raised elsewhere, in its status and before the next run', async () => {
    harness = await startHarness([think('one'), think('two'), think('three'), finish]);
    const { conversation } = await harness.conversation({ agent: agentOf(harness, true), budget: 0.04 });
    await conversation.sendMessage('think a while');
    expect((await conversation.run()).status).toBe('error');
    expect(harness.server.requests).toHaveLength(2);

    // Another process raises the budget in the shared record (as `setBudget` there writes it).
    const path = join(harness.persistenceDir, conversation.directory, BUDGET_FILE);
    const raise = async (maxUsd: number) => {
      const record = budgetRecordSchema.parse(JSON.parse(await readFile(path, 'utf8')));
      await writeFile(path, JSON.stringify({ ...record, max_usd: maxUsd }));
    };
    await raise(1);
    expect((await conversation.run()).status).toBe('finished');
    expect(harness.server.requests).toHaveLength(4);
    await raise(2);
    expect((await conversation.budgetStatus()).budget?.maxUsd).toBe(2);
    await conversation.close();
  });
});

describe("a run's own budget", () => {
  it('stops on a model of unknown cost unless the run allows it', async () => {
    harness = await startHarness([think('one'), finish]);
    const { conversation } = await harness.conversation({ agent: agentOf(harness, false) });
    await conversation.sendMessage('go');
    const stopped = await conversation.run({ budget: 5 });
    expect(stopped.status).toBe('error');
    expect(stopped.stoppedBeforeModelCall).toContain('spend is unknown');
    expect(stopped.stoppedBeforeModelCall).toContain('under a run budget of $5.0000');
    expect(harness.server.requests).toHaveLength(0);

    expect((await conversation.run({ budget: { maxUsd: 5, allowUnknownCost: true } })).status).toBe('finished');
    expect(harness.server.requests).toHaveLength(2);
    await conversation.close();
  });
});

describe('a budget reached while an approved action waits', () => {
  it('still runs the approved action (no model call), then stops before the next call', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'record_effect', arguments: { label: 'approved' } }] },
      finish,
    ]);
    // The first call costs $0.015; the next is estimated at $0.015 more, past $0.02.
    const { conversation, events } = await harness.conversation({
      agent: agentOf(harness, true),
      budget: 0.02,
      confirmationPolicy: { kind: 'AlwaysConfirm' },
    });
    await conversation.sendMessage('go');
    expect((await conversation.run()).status).toBe('waiting_for_confirmation');
    const [action] = await conversation.pendingActions();
    await conversation.decide([{ action_id: action!.id, decision: { kind: 'approve' } }], { principal: 'carol' });

    const result = await conversation.run();
    expect(result.status).toBe('error');
    expect(result.stoppedBeforeModelCall).toContain('maximum budget limit ($0.0200)');
    expect(harness.server.requests).toHaveLength(1);
    const executed = events.filter((event) => event.kind === 'ObservationEvent' && event.action_id === action!.id);
    expect(executed).toHaveLength(1);
    expect(await readFile(join(harness.workspace, 'effects.log'), 'utf8')).toContain('approved');
    await conversation.close();
  });
});

// Budgets with the offline model, end to end: the README promises it costs $0, so a budget must not stop it as a
// model of unknown cost once it has spent tokens.
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, createOfflineLLM, defaultTools } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

describe('a money budget with the offline model', () => {
  it('runs to the end: its tokens cost $0, they are not an unknown cost', async () => {
    harness = await startHarness([]);
    const llm = createOfflineLLM({
      script: [
        { toolCalls: [{ name: 'think', arguments: { thought: 'one' } }] },
        { toolCalls: [{ name: 'think', arguments: { thought: 'two' } }] },
        { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] },
      ],
    });
    const { conversation } = await harness.conversation({
      agent: new Agent({ llm, tools: defaultTools() }),
      budget: 1,
    });
    await conversation.sendMessage('think twice');
    const result = await conversation.run();
    expect(result.stoppedBeforeModelCall).toBe(undefined);
    expect(result.status).toBe('finished');
    const status = await conversation.budgetStatus();
    expect(status).toMatchObject({ spentUsd: 0, unknownCost: { usageIds: [], responses: [] }, lastStop: null });
    await conversation.close();
  });

  it('runs under a $0 budget (conversation and run): $0 means spend no money, and it spends none', async () => {
    harness = await startHarness([]);
    const llm = createOfflineLLM({
      script: [
        { toolCalls: [{ name: 'think', arguments: { thought: 'one' } }] },
        { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] },
      ],
    });
    const { conversation } = await harness.conversation({
      agent: new Agent({ llm, tools: defaultTools() }),
      budget: 0,
    });
    await conversation.sendMessage('think once');
    const result = await conversation.run({ budget: 0 });
    expect(result.stoppedBeforeModelCall).toBe(undefined);
    expect(result.status).toBe('finished');
    expect(await conversation.budgetStatus()).toMatchObject({ spentUsd: 0, lastStop: null });
    await conversation.close();
  });
});

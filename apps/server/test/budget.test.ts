import { startScriptedLLMServer } from '@x/agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, tempDir, waitForIdle } from './helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

// gpt-4o lists at $2.50 / $10 per million tokens: a reply of 1000 prompt + 500 completion tokens costs $0.0075,
// and the next call is estimated at those 1500 tokens as input, $0.00375.
const usage = { prompt_tokens: 1000, completion_tokens: 500 };
const think = { toolCalls: [{ name: 'think', arguments: { thought: 'hmm' } }], usage };

describe('money budgets over REST (x only)', () => {
  it('stops a run before the call that would pass it, keeps it across a restart, continues when raised', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const llm = await startScriptedLLMServer();
    try {
      const first = await startTestServer({ dataDir, llm });
      llm.push(think, think, { ...finishReply('done'), usage });
      const request = createRequest(llm, {
        budget: { max_usd: 0.01 },
        initial_message: { content: 'think' },
      });
      (request.agent as { llm: { model: string }; tools: unknown[] }).llm.model = 'gpt-4o';
      (request.agent as { tools: unknown[] }).tools = [{ name: 'ThinkTool' }];
      const created = await first.call('POST', '/api/conversations', request);
      expect(created.status).toBe(201);
      const id = (created.json as { id: string }).id;

      // Call 1 ($0.0075); call 2 would make $0.0075 + $0.00375 > $0.01.
      expect((await waitForIdle(first, id)).execution_status).toBe('error');
      expect(llm.requests).toHaveLength(1);
      const events = (await first.call('GET', `/api/conversations/${id}/events/search?limit=100`)).json as {
        items: { kind: string; code?: string; detail?: string }[];
      };
      const stop = events.items.find((event) => event.kind === 'ConversationErrorEvent');
      expect(stop).toMatchObject({ code: 'MaxBudgetReached' });
      expect(stop?.detail).toContain('maximum budget limit ($0.0100); accumulated cost $0.0075');
      await first.built.close();

      const second = await startTestServer({ dataDir, llm });
      const budget = await second.call('GET', `/api/conversations/${id}/budget`);
      expect(budget).toMatchObject({
        status: 200,
        json: { max_usd: 0.01, spent_usd: 0.0075, last_stop: { reason: 'limit', scope: 'conversation' } },
      });

      const raised = await second.call('POST', `/api/conversations/${id}/budget`, { max_usd: 1, run: true });
      expect(raised).toMatchObject({ status: 200, json: { max_usd: 1 } });
      expect((await waitForIdle(second, id)).execution_status).toBe('finished');
      expect(llm.requests).toHaveLength(3);
      await second.built.close();
    } finally {
      await llm.close();
    }
  });

  it('refuses a negative or non-numeric budget with 422', async () => {
    const server = await startTestServer();
    dirs.push(server.dataDir);
    try {
      for (const budget of [{ max_usd: -1 }, { max_usd: 'lots' }, { max_usd: 1, extra: true }]) {
        const response = await server.call('POST', '/api/conversations', createRequest(server.llm, { budget }));
        expect(response.status).toBe(422);
      }
      const created = await server.call('POST', '/api/conversations', createRequest(server.llm));
      const id = (created.json as { id: string }).id;
      const bad = await server.call('POST', `/api/conversations/${id}/budget`, { max_usd: -0.5 });
      expect(bad.status).toBe(422);
      const removed = await server.call('POST', `/api/conversations/${id}/budget`, { max_usd: null });
      expect(removed).toMatchObject({ status: 200, json: { max_usd: null } });
    } finally {
      await server.stop();
    }
  });
});

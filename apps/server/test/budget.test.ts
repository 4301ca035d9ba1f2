import { createHash } from 'node:crypto';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createRequest,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  tempDir,
  waitFor,
  waitForIdle,
} from './helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

// gpt-4o lists at $2.50 / $10 per million tokens: a reply of 1000 prompt + 500 completion tokens costs $0.0075,
// and the next call is estimated at those 1500 tokens as input, $0.00375.
const usage = { prompt_tokens: 1000, completion_tokens: 500 };
const think = { toolCalls: [{ name: 'think', arguments: { thought: 'hmm' } }], usage };

/** A promise the test resolves by hand (an LLM reply held while the test acts during the run). */
function manualGate(): { promise: Promise<void>; open(): void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A create request of a thinking gpt-4o agent (priced) with `extra`. */
function thinkingRequest(server: TestServer, extra: Record<string, unknown>): Record<string, unknown> {
  const request = createRequest(server.llm, extra);
  (request.agent as { llm: { model: string }; tools: unknown[] }).llm.model = 'gpt-4o';
  (request.agent as { tools: unknown[] }).tools = [{ name: 'ThinkTool' }];
  return request;
}

async function runsStarted(server: TestServer, id: string): Promise<number> {
  const page = await server.call('GET', `/api/conversations/${id}/events/search?limit=100`);
  const items = (page.json as { items: { kind: string; value?: { phase?: string } }[] }).items;
  return items.filter((event) => event.kind === 'ConversationStateUpdateEvent' && event.value?.phase === 'started')
    .length;
}

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

  it('a fork gets what is left of the budget (the record the library wrote), not the source record copied over it', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const llm = await startScriptedLLMServer();
    try {
      const server = await startTestServer({ dataDir, llm });
      llm.push(think, think, { ...finishReply('done'), usage });
      const request = thinkingRequest(server, { budget: { max_usd: 0.01 }, initial_message: { content: 'think' } });
      const id = ((await server.call('POST', '/api/conversations', request)).json as { id: string }).id;
      // Call 1 ($0.0075); call 2 would make $0.0075 + $0.00375 > $0.01.
      expect((await waitForIdle(server, id)).execution_status).toBe('error');
      expect(llm.requests).toHaveLength(1);

      const forked = await server.call('POST', `/api/conversations/${id}/fork`, {});
      expect(forked.status).toBe(201);
      const forkId = (forked.json as { id: string }).id;
      const budget = await server.call('GET', `/api/conversations/${forkId}/budget`);
      expect(budget).toMatchObject({ status: 200, json: { spent_usd: 0, last_stop: null } });
      expect((budget.json as { max_usd: number }).max_usd).toBeCloseTo(0.0025, 10);

      // $0.0025 left: the fork's first call is made ($0 spent, nothing to estimate), its second is not.
      llm.push(think, think);
      await server.call('POST', `/api/conversations/${forkId}/events`, {
        role: 'user',
        content: [{ type: 'text', text: 'go on' }],
        run: true,
      });
      expect((await waitForIdle(server, forkId)).execution_status).toBe('error');
      expect(llm.requests).toHaveLength(2);
      await server.built.close();
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

  it('raises the budget of a running conversation with run (200, recorded once): the run goes on under it', async () => {
    const server = await startTestServer();
    dirs.push(server.dataDir);
    const answer = manualGate();
    try {
      server.llm.push({ ...think, gate: answer.promise }, think, { ...finishReply('done'), usage });
      const created = await server.call(
        'POST',
        '/api/conversations',
        thinkingRequest(server, { budget: { max_usd: 0.01 }, initial_message: { content: 'think' } }),
      );
      const id = (created.json as { id: string }).id;
      await server.llm.waitForRequests(1);
      const conversation = await (await server.built.manager.require(id)).open();
      const setBudget = vi.spyOn(conversation, 'setBudget');

      const raised = await server.call('POST', `/api/conversations/${id}/budget`, { max_usd: 1, run: true });
      expect(raised).toMatchObject({ status: 200, json: { max_usd: 1 } });
      expect(setBudget).toHaveBeenCalledTimes(1);
      answer.open();

      // Under $0.01 the run would stop before call 2; the run in progress read the raise and went on, alone.
      expect((await waitForIdle(server, id)).execution_status).toBe('finished');
      expect(server.llm.requests).toHaveLength(3);
      expect(await runsStarted(server, id)).toBe(1);
    } finally {
      // A failed assertion must not leave the run waiting for its reply until the shutdown timeout.
      answer.open();
      await server.stop();
    }
  });

  it('refuses with 403, recording nothing, a budget with run from a caller who may not approve', async () => {
    const decider = 'key-of-the-decider-0001';
    const other = 'key-of-someone-else-0002';
    const principal = (key: string) => `api-key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
    const as = (key: string) => ({ 'x-session-api-key': key });
    const server = await startTestServer({
      config: { apiKeys: [decider, other], approvalDeciders: [principal(decider)] },
    });
    dirs.push(server.dataDir);
    try {
      // Waiting for confirmation: a run would run the pending command, which only the decider may approve.
      server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo budget-approval' } }] });
      const request = {
        ...createRequest(server.llm),
        confirmation_policy: { kind: 'AlwaysConfirm' },
        initial_message: { content: [{ type: 'text', text: 'do it' }], run: true },
      };
      const created = await server.call('POST', '/api/conversations', request, as(decider));
      const id = (created.json as { id: string }).id;
      const managed = await server.built.manager.require(id);
      await waitFor(
        async () => (await managed.open()).state.execution_status === 'waiting_for_confirmation' && !managed.isRunning,
      );
      const setBudget = vi.spyOn(await managed.open(), 'setBudget');

      const refused = await server.call(
        'POST',
        `/api/conversations/${id}/budget`,
        { max_usd: 5, run: true },
        as(other),
      );
      expect(refused).toMatchObject({ status: 403, json: { code: 'principal_not_allowed' } });
      expect(setBudget).not.toHaveBeenCalled();
      const budget = await server.call('GET', `/api/conversations/${id}/budget`, undefined, as(decider));
      expect(budget).toMatchObject({ status: 200, json: { max_usd: null } });
      expect((await managed.open()).state.execution_status).toBe('waiting_for_confirmation');
    } finally {
      await server.stop();
    }
  });
});

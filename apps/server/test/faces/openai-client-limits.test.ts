// A run that fails on a limit, as the official `openai` SDK sees it from the gateway of a real server: the model
// provider's rate limit is a RateLimitError (429 `rate_limit_exceeded`), so is a spent budget (429
// `insufficient_quota`); a conversation too long for the model's context is a BadRequestError (400
// `context_length_exceeded`), not a bare 500; none is retried by the SDK, which would run the agent again.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, type TestServer } from '../helpers.js';
import { rejectionOf, startGateway } from '../support/openai-gateway.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  // gpt-4o lists at $2.50 / $10 per million tokens: the budget's model has a known cost.
  ({ server, client } = await startGateway({
    'x-budget': (baseURL) => ({
      agent: {
        llm: { model: 'gpt-4o', base_url: baseURL, api_key: 'sk-test-secret' },
        tools: [{ name: 'TerminalTool' }],
      },
      budget: { max_usd: 0.01 },
    }),
  }));
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const ask = (sdk: OpenAI) =>
  sdk.chat.completions.create({ model: 'x-terminal', messages: [{ role: 'user', content: 'Go' }] });

describe('limits the run hits', () => {
  it("the provider's rate limit is a RateLimitError, not retried", async () => {
    // The agent's own SDK is told not to retry, so the run fails on the first 429.
    server.llm.push({
      error: { status: 429, message: 'slow down', code: 'rate_limit_exceeded' },
      headers: { 'x-should-retry': 'false' },
    });
    const retrying = new OpenAI({ apiKey: client.apiKey, baseURL: client.baseURL }); // the SDK's default retries
    const before = server.llm.requests.length;
    const error = await rejectionOf(ask(retrying));
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    expect((error as Error).message).toContain('LLMRateLimitError');
    expect(server.llm.requests.length - before).toBe(1);
  });

  it("a conversation over the model's context window is a BadRequestError context_length_exceeded", async () => {
    server.llm.push({ contextOverflow: true });
    const error = await rejectionOf(ask(client));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'context_length_exceeded' });
  });

  it("the conversation's spent budget is a RateLimitError insufficient_quota", async () => {
    // The first call costs $0.0075 and the next, estimated at $0.00375, would pass the $0.01 budget, so the run stops
    // before it.
    server.llm.push({
      toolCalls: [{ name: 'terminal', arguments: { command: 'echo spend' } }],
      usage: { prompt_tokens: 1000, completion_tokens: 500 },
    });
    const error = await rejectionOf(
      client.chat.completions.create({ model: 'x-budget', messages: [{ role: 'user', content: 'Spend' }] }),
    );
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'insufficient_quota', type: 'insufficient_quota' });
    expect((error as Error).message).toContain('MaxBudgetReached');
  });

  it('any other failure stays a 500 agent_run_failed', async () => {
    server.llm.push({ error: { status: 400, message: 'refused' } });
    const error = await rejectionOf(ask(client));
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(error).toMatchObject({ code: 'agent_run_failed' });
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent, Message } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Agent,
  Conversation,
  createAnthropicLLM,
  createGeminiLLM,
  createOpenAIResponsesLLM,
  type LLM,
  LLMAuthenticationError,
  LLMBadRequestError,
  LLMContextWindowExceededError,
  LLMRateLimitError,
  LLMServiceError,
  LLMSummarizingCondenser,
  LLMTimeoutError,
} from '../src/index.js';
import {
  startAnthropicServer,
  startGeminiServer,
  startResponsesServer,
  type WireServer,
} from '../src/testing/index.js';
import { type ProviderSpec, toolResult, userMessage } from './support/provider-contract.js';

const providers: ProviderSpec[] = [
  {
    name: 'anthropic',
    start: (script, options) => startAnthropicServer(script, options),
    create: (server, options = {}) =>
      createAnthropicLLM({
        model: 'anthropic/claude-sonnet-4-6',
        baseURL: server.baseURL,
        apiKey: options.apiKey ?? 'sk-ant-test',
        thinking: { budgetTokens: 2048 },
        maxRetries: options.maxRetries ?? 2,
        ...(options.usageId && { usageId: options.usageId }),
        ...(options.timeoutMs && { timeoutMs: options.timeoutMs }),
        ...(options.stream && { stream: true }),
      }),
    expectReasoningKept(message) {
      expect(message.thinking_blocks[0]).toMatchObject({ type: 'thinking', signature: expect.stringMatching(/^sig_/) });
      expect(message.reasoning_content).toBeTruthy();
    },
    dropReasoning: (message) => ({ ...message, thinking_blocks: [] }),
  },
  {
    name: 'openai-responses',
    start: (script, options) => startResponsesServer(script, options),
    create: (server, options = {}) =>
      createOpenAIResponsesLLM({
        model: 'openai/o4-mini',
        baseURL: server.baseURL,
        apiKey: options.apiKey ?? 'sk-test',
        reasoning: { effort: 'low', summary: 'auto' },
        maxRetries: options.maxRetries ?? 2,
        ...(options.usageId && { usageId: options.usageId }),
        ...(options.timeoutMs && { timeoutMs: options.timeoutMs }),
        ...(options.stream && { stream: true }),
      }),
    expectReasoningKept(message) {
      expect(message.responses_reasoning_item).toMatchObject({
        id: expect.stringMatching(/^rs_/),
        encrypted_content: expect.stringMatching(/^enc_/),
      });
      expect(message.tool_calls?.[0]).toMatchObject({
        origin: 'responses',
        responses_item_id: expect.stringMatching(/^fc_/),
      });
    },
    dropReasoning: ({ responses_reasoning_item: _dropped, ...message }) => message,
  },
  {
    name: 'gemini',
    start: (script, options) => startGeminiServer(script, options),
    create: (server, options = {}) =>
      createGeminiLLM({
        model: 'gemini/gemini-2.5-flash',
        baseURL: server.baseURL,
        apiKey: options.apiKey ?? 'gm-test',
        thinking: { includeThoughts: true },
        maxRetries: options.maxRetries ?? 2,
        retryDelayMs: 5,
        ...(options.usageId && { usageId: options.usageId }),
        ...(options.timeoutMs && { timeoutMs: options.timeoutMs }),
        ...(options.stream && { stream: true }),
      }),
    expectReasoningKept(message) {
      expect(message.tool_calls?.[0]?.id).toContain('__thought__');
      expect(message.reasoning_content).toBeTruthy();
    },
    dropReasoning: (message) => ({
      ...message,
      tool_calls: message.tool_calls?.map((call) => ({ ...call, id: call.id.split('__thought__')[0] as string })),
    }),
  },
];

let server: WireServer | undefined;
let workspace: string;
let dataDir: string;

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'x-providers-'));
  // Conversations are saved here, never in the default ~/.x/conversations.
  dataDir = await mkdtemp(join(tmpdir(), 'x-providers-data-'));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
  await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
});

async function conversationWith(llm: LLM, options: { condenser?: LLMSummarizingCondenser } = {}) {
  const events: AnyEvent[] = [];
  const agent = new Agent({ llm, tools: [], ...(options.condenser && { condenser: options.condenser }) });
  const conversation = await Conversation.create({
    agent,
    workspace,
    persistenceDir: dataDir,
    durability: 'none',
    onEvent: (event) => events.push(event),
  });
  return { conversation, events };
}

function violations(wire: WireServer): string[] {
  return wire.requests.flatMap((request) => request.violations);
}

describe.each(providers)('provider $name over its wire protocol', (spec) => {
  it('runs a multi-turn, parallel tool-using conversation with reasoning preserved across turns', async () => {
    server = await spec.start([
      {
        thinking: 'Two thoughts are needed.',
        text: 'Thinking in parallel.',
        toolCalls: [
          { name: 'think', arguments: { thought: 'first' } },
          { name: 'think', arguments: { thought: 'second' } },
        ],
      },
      { thinking: 'Both thoughts are done.', toolCalls: [{ name: 'finish', arguments: { message: 'All done.' } }] },
    ]);
    const llm = spec.create(server, { usageId: 'agent' });
    const { conversation, events } = await conversationWith(llm);
    await conversation.sendMessage('Think twice, then finish.');
    expect((await conversation.run()).status).toBe('finished');
    expect(server.requests).toHaveLength(2);
    expect(violations(server)).toEqual([]);
    const actions = events.filter((event) => event.kind === 'ActionEvent');
    expect(actions.map((action) => action.tool_call.name)).toEqual(['think', 'think', 'finish']);
    expect(actions[0]?.llm_response_id).toBe(actions[1]?.llm_response_id);
    spec.expectReasoningKept({
      role: 'assistant',
      content: [],
      thinking_blocks: actions[0]?.thinking_blocks ?? [],
      tool_calls: [actions[0]!.tool_call],
      ...(actions[0]?.reasoning_content !== undefined && { reasoning_content: actions[0].reasoning_content }),
      ...(actions[0]?.responses_reasoning_item && { responses_reasoning_item: actions[0].responses_reasoning_item }),
    });
    const metrics = conversation.state.stats.usage_to_metrics.agent;
    expect(metrics?.accumulated_token_usage.prompt_tokens).toBeGreaterThan(0);
    expect(metrics?.accumulated_cost).toBeGreaterThan(0);
    await conversation.close();
  });

  it('fails a follow-up that drops the reasoning, as the vendor does', async () => {
    server = await spec.start([
      { thinking: 'Plan first.', toolCalls: [{ name: 'think', arguments: { thought: 'x' } }] },
      { text: 'never sent' },
    ]);
    const llm = spec.create(server, { maxRetries: 0 });
    const first = await llm.complete({ messages: [userMessage('go')] });
    spec.expectReasoningKept(first.message);
    const call = first.message.tool_calls?.[0];
    const history: Message[] = [
      userMessage('go'),
      spec.dropReasoning(first.message),
      toolResult(call!.id, 'think', 'ok'),
    ];
    const error = await llm.complete({ messages: history }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LLMBadRequestError);
    expect(server.requests[1]?.violations.length).toBeGreaterThan(0);
    expect(server.checks.length).toBeGreaterThan(2);
  });

  it('streams text and reasoning deltas through onDelta and returns the same message', async () => {
    const turn = { thinking: 'Streaming thoughts here.', text: 'Hello from the stream, in pieces.' };
    server = await spec.start([turn, turn]);
    const plain = await spec.create(server).complete({ messages: [userMessage('hi')] });
    const deltas: { content?: string; reasoning_content?: string }[] = [];
    const streamed = await spec
      .create(server)
      .complete({ messages: [userMessage('hi')], onDelta: (delta) => deltas.push(delta) });
    expect(server.requests.map((request) => request.stream)).toEqual([false, true]);
    expect(deltas.filter((delta) => delta.content).length).toBeGreaterThan(1);
    expect(deltas.map((delta) => delta.content ?? '').join('')).toBe(turn.text);
    expect(deltas.map((delta) => delta.reasoning_content ?? '').join('')).toContain('Streaming thoughts');
    expect(streamed.message.content).toEqual(plain.message.content);
    expect(streamed.message.reasoning_content).toEqual(plain.message.reasoning_content);
    expect(streamed.finishReason).toBe('stop');
    expect(streamed.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('reads a cached prefix on the next turn and counts the cache tokens', async () => {
    server = await spec.start([{ text: 'one' }, { text: 'two' }]);
    const llm = spec.create(server);
    const system: Message = {
      role: 'system',
      content: [{ cache_prompt: false, type: 'text', text: 'You are terse. '.repeat(200) }],
      thinking_blocks: [],
    };
    const first = await llm.complete({ messages: [system, userMessage('first question')] });
    const second = await llm.complete({
      messages: [system, userMessage('first question'), first.message, userMessage('second question')],
    });
    expect(second.usage?.cache_read_tokens).toBeGreaterThan(0);
    expect(second.usage?.cache_read_tokens).toBeLessThanOrEqual(second.usage?.prompt_tokens ?? 0);
    expect(second.cost).toBeLessThan(
      ((second.usage?.prompt_tokens ?? 0) * 15 + (second.usage?.completion_tokens ?? 0) * 75) / 1e6,
    );
  });

  it.each([
    ['rate_limit', LLMRateLimitError, 2],
    ['overloaded', LLMServiceError, 2],
    ['server_error', LLMServiceError, 2],
    ['authentication', LLMAuthenticationError, 1],
    ['context_overflow', LLMContextWindowExceededError, 1],
  ] as const)('maps %s to its typed error (retried when the vendor says so)', async (kind, type, attempts) => {
    server = await spec.start([{ error: kind }, { error: kind }, { text: 'unused' }]);
    const error = await spec
      .create(server, { maxRetries: 1 })
      .complete({ messages: [userMessage('hi')] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(type);
    expect(server.requests).toHaveLength(attempts);
  });

  it('sends the key the vendor way, and maps a wrong key to the authentication error', async () => {
    server = await spec.start([{ text: 'accepted' }], { apiKey: 'right-key' });
    const accepted = await spec.create(server, { apiKey: 'right-key' }).complete({ messages: [userMessage('hi')] });
    expect(accepted.message.content[0]).toMatchObject({ text: 'accepted' });
    const error = await spec
      .create(server, { apiKey: 'wrong-key' })
      .complete({ messages: [userMessage('hi')] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LLMAuthenticationError);
  });

  it('retries a rate limit and succeeds', async () => {
    server = await spec.start([{ error: 'rate_limit' }, { text: 'after the wait' }]);
    const response = await spec.create(server, { maxRetries: 2 }).complete({ messages: [userMessage('hi')] });
    expect(response.message.content[0]).toMatchObject({ text: 'after the wait' });
    expect(server.requests).toHaveLength(2);
  });

  it('maps a slow answer to the timeout error', async () => {
    server = await spec.start([{ text: 'late', delayMs: 2000 }]);
    const error = await spec
      .create(server, { maxRetries: 0, timeoutMs: 100 })
      .complete({ messages: [userMessage('hi')] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LLMTimeoutError);
  });

  it('condenses on a context overflow and counts the condenser, title and side-question calls', async () => {
    let step = 0;
    let overflowed = false;
    server = await spec.start((body) => {
      const text = JSON.stringify(body);
      if (text.includes('<EVENT>')) return { text: 'SUMMARY: the thoughts so far.' };
      if (text.includes('concise title')) return { text: 'Thinking session' };
      if (text.includes('side question')) return { text: 'Two thoughts.' };
      step += 1;
      if (step <= 4)
        return { thinking: `step ${step}`, toolCalls: [{ name: 'think', arguments: { thought: `idea-${step}` } }] };
      if (!overflowed) {
        overflowed = true;
        return { error: 'context_overflow' };
      }
      return { text: 'Finished after condensing.' };
    });
    const llm = spec.create(server, { usageId: 'agent', maxRetries: 0 });
    const condenser = new LLMSummarizingCondenser({
      llm: spec.create(server, { usageId: 'condenser', maxRetries: 0 }),
      maxSize: 200,
      keepFirst: 2,
    });
    const { conversation, events } = await conversationWith(llm, { condenser });
    await conversation.sendMessage('think a lot');
    expect((await conversation.run()).status).toBe('finished');
    const kinds = events.map((event) => event.kind);
    expect(kinds.indexOf('Condensation')).toBeGreaterThan(kinds.indexOf('CondensationRequest'));
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('SUMMARY: the thoughts so far.');
    expect(violations(server)).toEqual([]);
    const promptTokens = () =>
      conversation.state.stats.usage_to_metrics.agent?.accumulated_token_usage.prompt_tokens ?? 0;
    const afterRun = promptTokens();
    expect(afterRun).toBeGreaterThan(0);
    expect(await conversation.generateTitle()).toBe('Thinking session');
    const afterTitle = promptTokens();
    expect(afterTitle).toBeGreaterThan(afterRun);
    expect(await conversation.askAgent('How many thoughts?')).toBe('Two thoughts.');
    expect(promptTokens()).toBeGreaterThan(afterTitle);
    const condenserMetrics = conversation.state.stats.usage_to_metrics.condenser;
    expect(condenserMetrics?.accumulated_token_usage.prompt_tokens).toBeGreaterThan(0);
    expect(condenserMetrics?.model_name).toBe(llm.model);
    await conversation.close();
  });
});

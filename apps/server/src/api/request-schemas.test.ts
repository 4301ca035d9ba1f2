import { describe, expect, it } from 'vitest';
import {
  askAgentSchema,
  batchGetQuerySchema,
  budgetBodySchema,
  conversationCountQuerySchema,
  conversationIdSchema,
  conversationSearchQuerySchema,
  eventParamsSchema,
  eventSearchQuerySchema,
  filePathSchema,
  generateTitleSchema,
  initialMessageSchema,
  llmRequestSchema,
  offlineTurnSchema,
  respondToConfirmationSchema,
  secretInputSchema,
  sendMessageRequestSchema,
  setBudgetBodySchema,
  startConversationRequestSchema,
  updateConversationSchema,
} from './request-schemas.js';

const ok = (schema: { safeParse(value: unknown): { success: boolean } }, value: unknown) =>
  schema.safeParse(value).success;

const agent = { llm: { model: 'offline' } };

describe('request schemas: the bounds and defaults a client sees', () => {
  it('takes a conversation id as 32 hex digits or a hyphenated UUID, any digit in any group', () => {
    expect(ok(conversationIdSchema, '0'.repeat(32))).toBe(true);
    expect(ok(conversationIdSchema, '00000000-0000-0000-0000-000000000000')).toBe(true);
    expect(ok(conversationIdSchema, 'ABCDEF01-2345-6789-abcd-ef0123456789')).toBe(true);
    expect(ok(conversationIdSchema, '0'.repeat(31))).toBe(false);
    expect(ok(conversationIdSchema, '00000000-0000-0000-0000-00000000000g')).toBe(false);
    expect(conversationIdSchema.description).toMatch(/UUID/);
  });

  it('takes a file path of 1 to 4096 characters without a NUL byte', () => {
    expect(ok(filePathSchema, '')).toBe(false);
    expect(ok(filePathSchema, 'a')).toBe(true);
    expect(ok(filePathSchema, 'a'.repeat(4096))).toBe(true);
    expect(ok(filePathSchema, 'a'.repeat(4097))).toBe(false);
    expect(ok(filePathSchema, 'a\0b')).toBe(false);
    expect(ok(filePathSchema, 'a\u0001b')).toBe(true);
  });

  it('refuses empty event ids and empty LLM names; takes a zero thinking budget', () => {
    expect(ok(eventParamsSchema, { conversation_id: '0'.repeat(32), event_id: '' })).toBe(false);
    expect(ok(eventParamsSchema, { conversation_id: '0'.repeat(32), event_id: 'e' })).toBe(true);
    for (const field of ['model', 'base_url', 'usage_id', 'custom_llm_provider']) {
      expect(ok(llmRequestSchema, { [field]: '' }), field).toBe(false);
      expect(ok(llmRequestSchema, { [field]: field === 'base_url' ? 'http://x' : 'x' }), field).toBe(true);
    }
    expect(ok(llmRequestSchema, { base_url: 'x' })).toBe(false);
    expect(ok(llmRequestSchema, { extended_thinking_budget: 0 })).toBe(true);
    expect(ok(llmRequestSchema, { extended_thinking_budget: -1 })).toBe(false);
    expect(ok(offlineTurnSchema, { toolCalls: [{ name: '', arguments: {} }] })).toBe(false);
    expect(ok(offlineTurnSchema, { toolCalls: [{ name: 'finish', arguments: {} }] })).toBe(true);
  });

  it('fills a start request’s defaults', () => {
    const parsed = startConversationRequestSchema.parse({
      agent,
      confirmation_policy: { kind: 'ConfirmRisky' },
    });
    expect(parsed).toMatchObject({
      max_iterations: 500,
      stuck_detection: true,
      workspace_checkpoints: false,
      confirmation_policy: { kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: true },
    });
  });

  it('bounds a start request’s fields: iterations, secrets’ names, title, agent names, budget', () => {
    const start = (fields: Record<string, unknown>) => ok(startConversationRequestSchema, { agent, ...fields });
    expect(start({ max_iterations: 1 })).toBe(true);
    expect(start({ max_iterations: 0 })).toBe(false);
    expect(start({ secrets: { '': 'v' } })).toBe(false);
    expect(start({ secrets: { K: 'v' } })).toBe(true);
    expect(start({ title: '   ' })).toBe(false);
    expect(start({ title: ' t ' })).toBe(true);
    expect(start({ agents: { '': agent } })).toBe(false);
    expect(start({ agents: { helper: agent } })).toBe(true);
    expect(start({ surprise: 1 })).toBe(false);
    expect(start({ budget: { max_usd: 1, extra: true } })).toBe(false);
    expect(startConversationRequestSchema.parse({ agent, budget: { max_usd: 0 } }).budget).toEqual({
      max_usd: 0,
      allow_unknown_cost: false,
    });
  });

  it('budget bodies: strict, unknown cost refused by default, no run unless asked', () => {
    expect(budgetBodySchema.parse({ max_usd: 2 })).toEqual({ max_usd: 2, allow_unknown_cost: false });
    expect(ok(budgetBodySchema, { max_usd: 2, run: true })).toBe(false);
    expect(setBudgetBodySchema.parse({ max_usd: null })).toEqual({
      max_usd: null,
      allow_unknown_cost: false,
      run: false,
    });
    expect(ok(setBudgetBodySchema, { max_usd: 2, other: 1 })).toBe(false);
  });

  it('fills message and confirmation defaults; refuses empty questions and titles', () => {
    expect(sendMessageRequestSchema.parse({ content: [] })).toMatchObject({ role: 'user', run: false });
    // The reference's SendMessageRequest defaults its content to [] (its Python client may leave it out).
    expect(sendMessageRequestSchema.parse({})).toEqual({ role: 'user', content: [], run: false });
    expect(initialMessageSchema.parse({})).toEqual({ role: 'user', content: [] });
    expect(respondToConfirmationSchema.parse({ accept: false }).reason).toBe('User rejected the action.');
    expect(ok(askAgentSchema, { question: '' })).toBe(false);
    expect(ok(askAgentSchema, { question: '?' })).toBe(true);
    expect(ok(updateConversationSchema, { title: ' ' })).toBe(false);
    expect(ok(updateConversationSchema, { title: 'a' })).toBe(true);
    expect(ok(updateConversationSchema, { title: 'a', name: 'b' })).toBe(false);
    expect(generateTitleSchema.parse({})).toEqual({ max_length: 50 });
  });

  it('pages conversations by 1 to 100 (default 100, newest first) and events by 0 to 100', () => {
    expect(conversationSearchQuerySchema.parse({})).toMatchObject({ limit: 100, sort_order: 'CREATED_AT_DESC' });
    expect(ok(conversationSearchQuerySchema, { limit: '0' })).toBe(false);
    expect(conversationSearchQuerySchema.parse({ limit: '1' }).limit).toBe(1);
    expect(ok(conversationSearchQuerySchema, { limit: '101' })).toBe(false);
    expect(eventSearchQuerySchema.parse({ limit: '0' }).limit).toBe(0);
    expect(eventSearchQuerySchema.parse({})).toMatchObject({ limit: 100, sort_order: 'TIMESTAMP' });
    expect(ok(eventSearchQuerySchema, { limit: '-1' })).toBe(false);
  });

  it('takes an http or https endpoint only (no other scheme, nothing that is no URL)', () => {
    for (const url of ['http://127.0.0.1:8000/v1', 'https://api.example.invalid/v1']) {
      expect(ok(llmRequestSchema, { base_url: url }), url).toBe(true);
    }
    for (const url of ['ftp://example.invalid/v1', 'file:///etc/passwd', 'javascript:alert(1)', '/v1']) {
      expect(ok(llmRequestSchema, { base_url: url }), url).toBe(false);
    }
  });

  it('takes a secret as a string or a StaticSecret; refuses one fetched from a URL, saying why', () => {
    expect(ok(secretInputSchema, 'value')).toBe(true);
    expect(ok(secretInputSchema, { value: 'v', description: 'd', kind: 'StaticSecret' })).toBe(true);
    expect(ok(secretInputSchema, { value: 'v' })).toBe(true);
    for (const lookup of [
      { kind: 'LookupSecret', url: 'http://127.0.0.1/secret' },
      { url: 'http://127.0.0.1/secret' },
    ]) {
      const parsed = secretInputSchema.safeParse(lookup);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([
        expect.stringMatching(/^secrets fetched from a URL \(the reference's LookupSecret\) are not supported/),
      ]);
    }
  });

  it('bounds titles to generate, tags, text queries and batch reads', () => {
    expect(ok(generateTitleSchema, { max_length: 0 })).toBe(false);
    expect(ok(generateTitleSchema, { max_length: 1 })).toBe(true);
    expect(ok(generateTitleSchema, { max_length: 200 })).toBe(true);
    expect(ok(generateTitleSchema, { max_length: 201 })).toBe(false);
    const tags = (value: unknown) => ok(updateConversationSchema, { tags: value });
    expect(tags({ env: 'x'.repeat(256), v2: '' })).toBe(true);
    expect(tags({ env: 'x'.repeat(257) })).toBe(false);
    for (const key of ['Env', 'my-tag', '']) expect(tags({ [key]: 'x' }), key).toBe(false);
    expect(ok(conversationCountQuerySchema, { q: 'x'.repeat(200) })).toBe(true);
    expect(ok(conversationCountQuerySchema, { q: 'x'.repeat(201) })).toBe(false);
    expect(ok(batchGetQuerySchema, { ids: Array.from({ length: 99 }, () => '0'.repeat(32)) })).toBe(true);
    expect(ok(batchGetQuerySchema, { ids: Array.from({ length: 100 }, () => '0'.repeat(32)) })).toBe(false);
  });
});

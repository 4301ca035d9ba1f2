// `responseUsages` read from logs written by hand, so each figure is known: the difference of each usage id's running
// totals between two `stats` updates, given to the first event of the response that follows (and to nothing else).
import { type AnyEvent, createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { responseUsages } from './response-usage.js';

type Totals = Partial<Record<'prompt_tokens' | 'completion_tokens' | 'cache_read_tokens' | 'reasoning_tokens', number>>;

const metrics = (model: string, cost: number | undefined, tokens: Totals) => ({
  model_name: model,
  ...(cost === undefined ? {} : { accumulated_cost: cost }),
  accumulated_token_usage: tokens,
});
const stats = (usage: Record<string, unknown>) =>
  createEvent('ConversationStateUpdateEvent', { key: 'stats', value: { usage_to_metrics: usage } } as never);
const update = (key: string, value: unknown) => createEvent('ConversationStateUpdateEvent', { key, value } as never);
const userMessage = () =>
  createEvent('MessageEvent', {
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text: 'go' }] },
  });
const agentMessage = (responseId: string) =>
  createEvent('MessageEvent', {
    source: 'agent',
    llm_message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    llm_response_id: responseId,
  });
const action = (responseId: string, callId: string) =>
  createEvent('ActionEvent', {
    thought: [],
    tool_name: 'terminal',
    tool_call_id: callId,
    tool_call: { id: callId, name: 'terminal', arguments: '{}', origin: 'completion' },
    llm_response_id: responseId,
  });

const usageOf = (usageId: string, model: string, figures: Partial<Record<string, number>>) => ({
  usage_id: usageId,
  model,
  prompt_tokens: 0,
  completion_tokens: 0,
  cache_read_tokens: 0,
  reasoning_tokens: 0,
  cost: 0,
  ...figures,
});

describe('responseUsages', () => {
  it('gives each response the difference of the running totals, once, on the first of its events', () => {
    const events: AnyEvent[] = [
      userMessage(),
      stats({ agent: metrics('gpt', 0.25, { prompt_tokens: 100, completion_tokens: 10 }) }),
      action('r1', 'c1'),
      action('r1', 'c2'),
      stats({
        agent: metrics('gpt', 0.75, {
          prompt_tokens: 250,
          completion_tokens: 30,
          cache_read_tokens: 50,
          reasoning_tokens: 5,
        }),
      }),
      agentMessage('r2'),
    ];
    const usages = responseUsages(events);
    expect([...usages.keys()]).toEqual(['r1', 'r2']);
    expect(usages.get('r1')).toEqual([
      usageOf('agent', 'gpt', { prompt_tokens: 100, completion_tokens: 10, cost: 0.25 }),
    ]);
    expect(usages.get('r2')).toEqual([
      usageOf('agent', 'gpt', {
        prompt_tokens: 150,
        completion_tokens: 20,
        cache_read_tokens: 50,
        reasoning_tokens: 5,
        cost: 0.5,
      }),
    ]);
  });

  it('lists only the usage ids whose totals moved, even by a single token at no cost', () => {
    const events = [
      stats({
        agent: metrics('gpt', 0.25, { prompt_tokens: 100 }),
        condenser: metrics('mini', 0, { prompt_tokens: 7 }),
      }),
      action('r1', 'c1'),
      stats({
        agent: metrics('gpt', 0.25, { prompt_tokens: 101 }),
        condenser: metrics('mini', 0, { prompt_tokens: 7 }),
      }),
      agentMessage('r2'),
    ];
    const usages = responseUsages(events);
    expect(usages.get('r1')).toEqual([
      usageOf('agent', 'gpt', { prompt_tokens: 100, cost: 0.25 }),
      usageOf('condenser', 'mini', { prompt_tokens: 7 }),
    ]);
    expect(usages.get('r2')).toEqual([usageOf('agent', 'gpt', { prompt_tokens: 1 })]);
  });

  it('reads totals without a cost, a model name or some counters as zero, and never gives a negative figure', () => {
    const events = [
      stats({ local: { accumulated_token_usage: { completion_tokens: 3 } } }),
      agentMessage('r1'),
      // Totals that went down (a usage id reset) count as nothing, not as a negative response.
      stats({ local: { accumulated_cost: 0, accumulated_token_usage: { prompt_tokens: 40, completion_tokens: 1 } } }),
      agentMessage('r2'),
    ];
    const usages = responseUsages(events);
    expect(usages.get('r1')).toEqual([usageOf('local', '', { completion_tokens: 3 })]);
    expect(usages.get('r2')).toEqual([usageOf('local', '', { prompt_tokens: 40 })]);
  });

  it('passes over other state updates and stats updates without totals, keeping the totals before them', () => {
    const events = [
      stats({ agent: metrics('gpt', 0.25, { prompt_tokens: 100 }) }),
      update('title', 'A title'),
      createEvent('ConversationStateUpdateEvent', { key: 'stats', value: null } as never),
      createEvent('ConversationStateUpdateEvent', { key: 'stats', value: {} } as never),
      action('r1', 'c1'),
      update('stats', { usage_to_metrics: null }),
      stats({ agent: metrics('gpt', 0.5, { prompt_tokens: 160 }) }),
      agentMessage('r2'),
    ];
    const usages = responseUsages(events);
    expect(usages.get('r1')).toEqual([usageOf('agent', 'gpt', { prompt_tokens: 100, cost: 0.25 })]);
    expect(usages.get('r2')).toEqual([usageOf('agent', 'gpt', { prompt_tokens: 60, cost: 0.25 })]);
  });

  it('leaves out usage no response event follows (a side question), and responses no usage came before', () => {
    const events = [
      stats({ agent: metrics('gpt', 0.25, { prompt_tokens: 100 }) }),
      userMessage(),
      agentMessage('r1'),
      stats({ agent: metrics('gpt', 0.5, { prompt_tokens: 180 }) }),
      agentMessage('r2'),
      agentMessage('r2'),
    ];
    const usages = responseUsages(events);
    expect([...usages.keys()]).toEqual(['r2']);
    expect(usages.get('r2')).toEqual([usageOf('agent', 'gpt', { prompt_tokens: 80, cost: 0.25 })]);
  });
});

import { describe, expect, it } from 'vitest';
import { emptyTokenUsage } from '../llm/metrics.js';
import { type ConversationState, initialConversationState } from '../state/conversation-state.js';
import { buildBaseState, checkpointFromBaseState, parseBaseState } from './base-state.js';
import { CorruptConversationError } from './errors/corrupt-conversation-error.js';

const id = 'e88b7591-31db-4e32-98dc-b35f94c662cd';

function build(state: ConversationState, recorded?: Record<string, unknown>): Record<string, unknown> {
  return buildBaseState({
    state,
    agent: { kind: 'Agent' },
    workspace: '/work',
    persistenceDir: '/store/e88b7591',
    secretRegistry: {},
    recorded,
  });
}

function withAgentStats(state: ConversationState): ConversationState {
  const usage = { ...emptyTokenUsage('gpt'), prompt_tokens: 7 };
  return {
    ...state,
    stats: { usage_to_metrics: { agent: { model_name: 'gpt', accumulated_cost: 2, accumulated_token_usage: usage } } },
  };
}

describe('buildBaseState over a recorded base_state.json', () => {
  it("keeps the recorded activated skills as they were (a name repeated too) and adds x's new ones after", () => {
    const written = buildBaseState({
      state: initialConversationState({ id }),
      agent: { kind: 'Agent' },
      workspace: '/work',
      persistenceDir: '/store/e88b7591',
      secretRegistry: {},
      recorded: { activated_knowledge_skills: ['file.py', 'file.py', 's'] },
      activatedSkills: ['file.py', 's', 'deploy'],
    });
    expect(written.activated_knowledge_skills).toEqual(['file.py', 'file.py', 's', 'deploy']);
  });

  it("keeps the recorded invoked skills as they were (a name repeated too) and adds x's new ones after", () => {
    const state = { ...initialConversationState({ id }), invoked_skills: ['s', 'deploy', 'lint'] };
    const written = build(state, { invoked_skills: ['s', 's', 'deploy'] });
    expect(written.invoked_skills).toEqual(['s', 's', 'deploy', 'lint']);
    // Written back again (x's state seeded from the file), nothing is added or lost.
    expect(build(state, { invoked_skills: written.invoked_skills }).invoked_skills).toEqual(written.invoked_skills);
  });

  it("keeps each per-response list the reference recorded, even one alone, beside x's totals", () => {
    const costs = [{ model: 'gpt', cost: 1, timestamp: 5 }];
    const condenser = { model_name: 'small', accumulated_cost: 3, costs: [], token_usages: [] };
    const written = build(withAgentStats(initialConversationState({ id })), {
      stats: { usage_to_metrics: { agent: { model_name: 'gpt', costs }, condenser } },
    });
    const usage = (written.stats as { usage_to_metrics: Record<string, Record<string, unknown>> }).usage_to_metrics;
    expect(usage.agent).toMatchObject({ accumulated_cost: 2, costs });
    expect(usage.agent).not.toHaveProperty('token_usages');
    // A usage id only the reference's file has is kept whole.
    expect(usage.condenser).toEqual(condenser);
  });

  it('writes the stats snapshot as it is when the recorded file has none', () => {
    const state = withAgentStats(initialConversationState({ id }));
    expect(build(state, { tags: { team: 'core' } }).stats).toEqual(state.stats);
  });

  it("merges the recorded invoked skills with x's, each once, the recorded ones first", () => {
    const state = { ...initialConversationState({ id }), invoked_skills: ['deploy', 'review'] };
    const written = build(state, { invoked_skills: ['git', 'deploy', 7] });
    expect(written.invoked_skills).toEqual(['git', 'deploy', 'review']);
  });

  it("does not copy the recorded HEAD or last user message over x's empty tree, nor null unknown fields", () => {
    const state = { ...initialConversationState({ id }), head_is_empty: true };
    const written = build(state, {
      leaf_event_id: 'old-leaf',
      last_user_message_id: 'old-message',
      removed_field: null,
      future_field: 1,
    });
    expect(written).not.toHaveProperty('leaf_event_id');
    expect(written).not.toHaveProperty('last_user_message_id');
    expect(written).not.toHaveProperty('removed_field');
    expect(written.head_is_empty).toBe(true);
    expect(written.future_field).toBe(1);
  });
});

describe('buildBaseState and recorded fields named like inherited properties', () => {
  it('writes back unknown fields, tags and agent_state keys named __proto__, constructor or toString unchanged', () => {
    const text =
      '{"__proto__": {"a": 1}, "constructor": "c", "toString": [1], "hasOwnProperty": true,' +
      ' "tags": {"__proto__": "p", "constructor": "c"}, "agent_state": {"__proto__": {"b": 2}, "toString": 3}}';
    const written = build(initialConversationState({ id }), JSON.parse(text));
    expect(Object.getPrototypeOf(written)).toBe(Object.prototype);
    const reread = JSON.parse(JSON.stringify(written)) as Record<string, unknown>;
    expect(Object.keys(reread).slice(-4)).toEqual(['__proto__', 'constructor', 'toString', 'hasOwnProperty']);
    expect(JSON.stringify(Object.fromEntries(Object.entries(reread).slice(-4)))).toBe(
      '{"__proto__":{"a":1},"constructor":"c","toString":[1],"hasOwnProperty":true}',
    );
    expect(JSON.stringify(reread.tags)).toBe('{"__proto__":"p","constructor":"c"}');
    expect(Object.keys(reread.agent_state as object)).toEqual([
      '__proto__',
      'toString',
      'x_state',
      'x_security_analyzer',
    ]);
  });
});

describe('parseBaseState', () => {
  it('names the field that is wrong and where the file is', () => {
    const text = JSON.stringify({ id, max_iterations: 0 });
    expect(() => parseBaseState(text, '/store/x/base_state.json')).toThrow(
      /\/store\/x\/base_state\.json: base_state\.json: max_iterations: /,
    );
    expect(() => parseBaseState('{"id":', 'here')).toThrow(CorruptConversationError);
    expect(() => parseBaseState('{"id":', 'here')).toThrow(/not valid JSON/);
  });

  it("reads back x's own checkpoint, and none from a file the reference wrote", () => {
    const state = withAgentStats({ ...initialConversationState({ id }), event_count: 4, leaf_event_id: 'leaf' });
    const ours = parseBaseState(JSON.stringify(build(state)), 'here');
    expect(checkpointFromBaseState(ours)).toEqual(state);
    expect(ours.leaf_event_id).toBe('leaf');
    const reference = parseBaseState(JSON.stringify({ id, agent_state: { goal: 'x' } }), 'here');
    expect(checkpointFromBaseState(reference)).toBeUndefined();
    expect(reference.raw.agent_state).toEqual({ goal: 'x' });
  });
});

import { describe, expect, it } from 'vitest';
import { addRemoteUsage, remoteAnswerOf } from './remote-spend.js';

describe('remoteAnswerOf', () => {
  it('takes a bare string as an answer that reported no usage, and an answer as it is', () => {
    expect(remoteAnswerOf('hi')).toEqual({ text: 'hi' });
    const answer = { text: 'hi', usage: { costUsd: 1 } };
    expect(remoteAnswerOf(answer)).toBe(answer);
  });
});

describe('addRemoteUsage', () => {
  it('starts from nothing spent and counts only what a task reported', () => {
    const dollarsOnly = addRemoteUsage(undefined, { costUsd: 0.25 });
    expect(dollarsOnly).toMatchObject({
      model_name: 'remote',
      accumulated_cost: 0.25,
      accumulated_token_usage: { model: 'remote', prompt_tokens: 0, completion_tokens: 0, per_turn_token: 0 },
    });
    const tokensOnly = addRemoteUsage(undefined, { promptTokens: 10 });
    expect(tokensOnly).toMatchObject({
      accumulated_cost: 0,
      accumulated_token_usage: { prompt_tokens: 10, completion_tokens: 0, per_turn_token: 10 },
    });
    expect(addRemoteUsage(undefined, { completionTokens: 4 }).accumulated_token_usage).toMatchObject({
      prompt_tokens: 0,
      completion_tokens: 4,
    });
  });

  it("adds a task's usage to the sub-agent's earlier spend; the turn's tokens are the last task's", () => {
    const first = addRemoteUsage(undefined, { costUsd: 0.5, promptTokens: 100, completionTokens: 20 });
    const second = addRemoteUsage(first, { costUsd: 0.25, promptTokens: 7, completionTokens: 3 });
    expect(second).toMatchObject({
      accumulated_cost: 0.75,
      accumulated_token_usage: { prompt_tokens: 107, completion_tokens: 23, per_turn_token: 10 },
    });
  });
});

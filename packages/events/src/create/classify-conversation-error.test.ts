import { describe, expect, it } from 'vitest';
import { classifyConversationError } from './classify-conversation-error.js';

describe('classifyConversationError (reference §8.9)', () => {
  it.each([
    ['LLMAuthenticationError', 'x', { kind: 'auth', retryable: false, user_action: 'settings' }],
    ['LLMRateLimitError', 'x', { kind: 'rate_limit', retryable: true, user_action: 'retry' }],
    ['MaxBudgetReached', 'x', { kind: 'quota', retryable: false, user_action: 'settings' }],
    ['LibTmuxException', 'x', { kind: 'config', retryable: false, user_action: 'settings' }],
    ['LLMContextWindowExceedError', 'x', { kind: 'agent_action', retryable: true, user_action: 'retry' }],
    ['MaxIterationsReached', 'x', { kind: 'agent_action', retryable: false, user_action: 'none' }],
    ['TypeError', 'timeout', { kind: 'internal', retryable: false, user_action: 'none' }],
  ])('classifies code %s first', (code, detail, expected) => {
    expect(classifyConversationError(code, detail)).toEqual(expected);
  });

  it.each([
    ['RuntimeError', 'Error code: 401 - Invalid API key', 'auth'],
    ['RuntimeError', 'You reached your WEEKLY USAGE LIMIT', 'quota'],
    ['RuntimeError', 'provider said {"status": 429}', 'rate_limit'],
    ['RuntimeError', 'Model not found: gpt-9', 'config'],
    ['RuntimeError', 'Error code: 503 Service Temporarily Unavailable', 'transient'],
    ['RuntimeError', 'Duplicate tool names found', 'internal'],
    ['RuntimeError', 'unauthorized and also timeout', 'auth'],
  ])('then by the case-folded detail: %s / %s → %s', (code, detail, kind) => {
    expect(classifyConversationError(code, detail).kind).toBe(kind);
  });

  it('then treats generic wrapper codes as transient, everything else as unknown, and never copies the detail', () => {
    expect(classifyConversationError('OpenAIError', 'something odd')).toEqual({
      kind: 'transient',
      retryable: true,
      user_action: 'retry',
    });
    const unknown = classifyConversationError('ValueError', 'something odd');
    expect(unknown).toEqual({ kind: 'unknown', retryable: false, user_action: 'none' });
    expect(JSON.stringify(unknown)).not.toContain('odd');
    unknown.retryable = true;
    expect(classifyConversationError('ValueError', 'again').retryable).toBe(false);
  });
});

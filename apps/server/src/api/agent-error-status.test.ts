import { AgentError, ConversationLogGapError, DecisionRecordDamagedError, PrincipalNotAllowedError } from '@x/agent';
import { describe, expect, it } from 'vitest';
import { rpcErrorResponse } from '../faces/a2a/a2a-rpc-error.js';
import { openAiErrorOf } from '../faces/openai/openai-error.js';
import { errorStatus } from './agent-error-status.js';

// Every face answers an agent refusal as what it is (a conflict, a forbidden caller, an unknown event), not as an
// internal error: the faces that mapped errors by `statusCode` alone saw none on an AgentError.

class TestAgentError extends AgentError {}

const cases: [string, AgentError, number][] = [
  ['a principal outside approvalDeciders', new PrincipalNotAllowedError('key:abc'), 403],
  ['a run already under way', new TestAgentError('conversation_running', 'running'), 409],
  ['a decision that lost to another', new TestAgentError('decision_conflict', 'already decided'), 409],
  ['an unknown event', new TestAgentError('unknown_event', 'no such event'), 404],
  ['an invalid decision', new TestAgentError('invalid_decision', 'bad'), 422],
  ['a damaged decision record', new DecisionRecordDamagedError('events/.decisions/a.json', 'not JSON'), 409],
  [
    'a log that lost an event in its middle',
    new ConversationLogGapError({ conversationId: 'c1', missingIndex: 2, filesPastGap: 3 }),
    409,
  ],
  ['a provider rate limit', new TestAgentError('llm_rate_limit', 'slow down'), 429],
];

describe('errorStatus', () => {
  it.each(cases)('%s stands for its HTTP status', (_name, error, status) => {
    expect(errorStatus(error)).toBe(status);
  });

  it('an unexpected agent error, or a plain error, stands for none (a 500)', () => {
    expect(errorStatus(new TestAgentError('something_new', 'x'))).toBeUndefined();
    expect(errorStatus(new Error('boom'))).toBeUndefined();
    expect(errorStatus(Object.assign(new Error('body'), { statusCode: 413 }))).toBe(413);
    expect(errorStatus(Object.assign(new Error('odd'), { statusCode: 200 }))).toBeUndefined();
  });
});

describe('A2A', () => {
  it('a forbidden caller is an invalid request with the reason PERMISSION_DENIED, naming the principal', () => {
    const response = rpcErrorResponse(7, new PrincipalNotAllowedError('key:abc'));
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32600,
        message: "'key:abc' is not allowed to decide on pending actions.",
        data: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'PERMISSION_DENIED',
            domain: 'a2a-protocol.org',
          },
        ],
      },
    });
  });

  it('a conflict is invalid params, an unknown event a task not found, an unexpected error internal', () => {
    const code = (error: unknown) => (rpcErrorResponse(1, error).error as { code: number }).code;
    expect(code(new TestAgentError('decision_conflict', 'already decided'))).toBe(-32602);
    expect(code(new TestAgentError('conversation_running', 'running'))).toBe(-32602);
    expect(code(new TestAgentError('unknown_event', 'no such event'))).toBe(-32001);
    expect(code(new TestAgentError('something_new', 'x'))).toBe(-32603);
    expect(code(new Error('boom'))).toBe(-32603);
  });
});

describe('OpenAI face', () => {
  it.each(cases)('%s answers with its status, not a 500', (_name, error, status) => {
    const answer = openAiErrorOf(error);
    expect(answer.status).toBe(status);
    expect(answer.body.error.message).toBe(error.message);
    expect(answer.body.error.type).not.toBe('server_error');
  });
});

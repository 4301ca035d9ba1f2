import { describe, expect, it } from 'vitest';
import { openAiErrorOf } from './openai-error.js';

/** An error from outside the face (Fastify, the conversation layer) carrying an HTTP status. */
const withStatus = (statusCode: unknown, code?: string) => Object.assign(new Error('it broke'), { statusCode, code });

describe('openAiErrorOf, for an error from outside the face', () => {
  it('answers a 5xx as a server_error with that status, a 500 included', () => {
    for (const status of [500, 503]) {
      expect(openAiErrorOf(withStatus(status, 'E_DOWN'))).toEqual({
        status,
        body: { error: { message: 'it broke', type: 'server_error', param: null, code: 'E_DOWN' } },
      });
    }
  });

  it('answers a 4xx as a client error with that status, a 400 included', () => {
    for (const status of [400, 409]) {
      expect(openAiErrorOf(withStatus(status))).toEqual({
        status,
        body: { error: { message: 'it broke', type: 'invalid_request_error', param: null, code: null } },
      });
    }
  });

  it('never sends a status that is not an error one (or not a number): a 500 internal_error instead', () => {
    for (const status of [200, 302, 600, '503']) {
      expect(openAiErrorOf(withStatus(status))).toEqual({
        status: 500,
        body: { error: { message: 'it broke', type: 'server_error', param: null, code: 'internal_error' } },
      });
    }
  });
});

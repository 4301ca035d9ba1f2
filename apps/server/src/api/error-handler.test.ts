import { AgentError } from '@x/agent';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ServerError } from '../errors.js';
import { installErrorHandlers } from './error-handler.js';

// The error handler on a bare Fastify app answering through `inject` (no socket): each route throws what the
// test names, and the answer's status and body are what a client sees.

class TestServerError extends ServerError {
  readonly statusCode: number | undefined;
  readonly loc: readonly string[] | undefined;
  constructor(code: string, message: string, options: { statusCode?: number; loc?: readonly string[] } = {}) {
    super(code, message);
    this.statusCode = options.statusCode;
    this.loc = options.loc;
  }
}

class TestAgentError extends AgentError {
  readonly problem: string | undefined;
  constructor(code: string, message: string, problem?: string) {
    super(code, message);
    this.problem = problem;
  }
}

let thrown: unknown;
let app: FastifyInstance;
const gone = new Set<string>();

beforeAll(async () => {
  app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandlers(app, { conversationGone: (id) => gone.has(id) });
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.post(
    '/validated/:conversation_id',
    {
      schema: {
        params: z.object({ conversation_id: z.string().regex(/^[0-9a-f]+$/, { message: 'hex only' }) }),
        querystring: z.object({ limit: z.coerce.number().int().max(10).optional() }),
        body: z.object({ nested: z.object({ count: z.number() }) }),
      },
    },
    async () => ({ ok: true }),
  );
  app.get('/throw/:conversation_id', async () => {
    throw thrown;
  });
  app.post('/throw/:conversation_id', async () => {
    throw thrown;
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

async function answer(
  error: unknown,
  conversationId = 'c1',
): Promise<{ status: number; body: Record<string, unknown> }> {
  thrown = error;
  const response = await app.inject({ method: 'GET', url: `/throw/${conversationId}` });
  return { status: response.statusCode, body: response.json() };
}

describe('installErrorHandlers', () => {
  it('answers an unknown route with a bare 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/nowhere/secret-path' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not Found' });
  });

  it('answers validation failures as FastAPI does: 422 with each issue located (body, query)', async () => {
    const body = await app.inject({ method: 'POST', url: '/validated/ab', payload: { nested: { count: 'x' } } });
    expect(body.statusCode).toBe(422);
    expect(body.json()).toEqual({
      detail: [{ type: expect.any(String), loc: ['body', 'nested', 'count'], msg: expect.any(String) }],
    });
    const query = await app.inject({
      method: 'POST',
      url: '/validated/ab?limit=11',
      payload: { nested: { count: 1 } },
    });
    expect(query.statusCode).toBe(422);
    expect((query.json() as { detail: { loc: string[] }[] }).detail[0]?.loc).toEqual(['query', 'limit']);
    const fine = await app.inject({ method: 'POST', url: '/validated/ab', payload: { nested: { count: 1 } } });
    expect(fine.statusCode).toBe(200);
  });

  it('answers a malformed path parameter with a 400 naming it', async () => {
    const response = await app.inject({ method: 'POST', url: '/validated/XYZ', payload: { nested: { count: 1 } } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'Invalid path parameter: conversation_id: hex only' });
  });

  it('answers a ServerError with its status, found through the cause chain up to 8 deep', async () => {
    expect(await answer(new TestServerError('not_found', 'No such thing', { statusCode: 404 }))).toEqual({
      status: 404,
      body: { detail: 'No such thing' },
    });
    expect(await answer(new TestServerError('bad', 'Just below', { statusCode: 499 }))).toEqual({
      status: 499,
      body: { detail: 'Just below' },
    });
    let wrapped: Error = new TestServerError('conflict', 'Deep conflict', { statusCode: 409 });
    for (let depth = 0; depth < 7; depth++) wrapped = new Error(`wrapper ${depth}`, { cause: wrapped });
    expect(await answer(wrapped)).toEqual({ status: 409, body: { detail: 'Deep conflict' } });
    // One level deeper than the handler looks: an unexpected error.
    expect((await answer(new Error('wrapper 8', { cause: wrapped }))).status).toBe(500);
  });

  it('names the code of a deleted workspace root in the body, beside the detail', async () => {
    for (const code of ['git_workspace_gone', 'workspace_gone']) {
      expect(await answer(new TestServerError(code, 'Root deleted', { statusCode: 409 }))).toEqual({
        status: 409,
        body: { detail: 'Root deleted', code },
      });
    }
  });

  it('answers a 422 ServerError as a validation issue at its location, the body by default', async () => {
    expect(await answer(new TestServerError('invalid', 'Bad field', { statusCode: 422, loc: ['body', 'x'] }))).toEqual({
      status: 422,
      body: { detail: [{ type: 'value_error', loc: ['body', 'x'], msg: 'Bad field' }] },
    });
    expect(await answer(new TestServerError('invalid', 'Bad body', { statusCode: 422 }))).toEqual({
      status: 422,
      body: { detail: [{ type: 'value_error', loc: ['body'], msg: 'Bad body' }] },
    });
  });

  it('answers sandbox_required with 503 and its code; other server failures and odd statuses are 500s', async () => {
    expect(await answer(new TestServerError('sandbox_required', 'Start with --unsandboxed'))).toEqual({
      status: 503,
      body: { detail: 'Start with --unsandboxed', code: 'sandbox_required' },
    });
    for (const statusCode of [undefined, 500, 600, 399]) {
      const { status, body } = await answer(new TestServerError('broken', 'Internal', { statusCode }));
      expect(status, String(statusCode)).toBe(500);
      expect(body).toMatchObject({
        detail: 'Internal Server Error',
        error_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      });
    }
  });

  it('maps agent error codes to their statuses', async () => {
    const cases: [string, number, Record<string, unknown>][] = [
      ['conversation_running', 409, { detail: 'Conversation already running. Wait for completion or pause first.' }],
      ['unknown_event', 404, { detail: 'm' }],
      ['unknown_artifact', 404, { detail: 'm' }],
      ['conversation_exists', 409, { detail: 'm' }],
      ['no_condenser', 400, { detail: 'm' }],
      ['no_user_message', 400, { detail: 'm' }],
      ['sandbox_unavailable', 503, { detail: 'm', code: 'sandbox_unavailable' }],
      ['sandbox_limit_unavailable', 503, { detail: 'm', code: 'sandbox_limit_unavailable' }],
      ['sandbox_policy_invalid', 422, { detail: [{ type: 'value_error', loc: ['body', 'sandbox'], msg: 'm' }] }],
      ['invalid_budget', 422, { detail: [{ type: 'value_error', loc: ['body', 'budget'], msg: 'm' }] }],
      ['decision_conflict', 409, { detail: 'm', code: 'decision_conflict' }],
      ['action_not_pending', 409, { detail: 'm', code: 'action_not_pending' }],
      ['principal_not_allowed', 403, { detail: 'm', code: 'principal_not_allowed' }],
      ['invalid_decision', 422, { detail: [{ type: 'value_error', loc: ['body', 'decisions'], msg: 'm' }] }],
      ['tool_name_collision', 422, { detail: [{ type: 'value_error', loc: ['body'], msg: 'm' }] }],
      ['invalid_state_delta', 422, { detail: [{ type: 'value_error', loc: ['body'], msg: 'm' }] }],
      ['llm_rate_limit', 429, { detail: expect.stringMatching(/rate limiting/), code: 'llm_rate_limit' }],
    ];
    for (const [code, status, body] of cases) {
      expect(await answer(new TestAgentError(code, 'm')), code).toEqual({ status, body });
    }
  });

  it('answers a refused workspace path by its problem (400 when it names none)', async () => {
    expect((await answer(new TestAgentError('workspace_path', 'outside', 'outside'))).status).toBe(403);
    expect((await answer(new TestAgentError('workspace_path', 'missing', 'missing'))).status).toBe(404);
    expect(await answer(new TestAgentError('workspace_path', 'no problem named'))).toEqual({
      status: 400,
      body: { detail: 'no problem named' },
    });
  });

  it('never trusts an agent error’s own statusCode: an unmapped code is a 500', async () => {
    const error = Object.assign(new TestAgentError('something_new', 'm'), { statusCode: 404 });
    expect((await answer(error)).status).toBe(500);
  });

  it('answers a NUL byte that reached the file system with 400, other argument errors with 500', async () => {
    for (const code of ['ERR_INVALID_ARG_VALUE', 'ERR_INVALID_ARG_TYPE']) {
      const error = Object.assign(new TypeError('path must be a string without null bytes'), { code });
      expect(await answer(error), code).toEqual({
        status: 400,
        body: { detail: 'A path in the request contains a NUL byte' },
      });
    }
    const other = Object.assign(new TypeError('path must be a string'), { code: 'ERR_INVALID_ARG_TYPE' });
    expect((await answer(other)).status).toBe(500);
    const unrelated = Object.assign(new Error('null bytes'), { code: 'ENOENT' });
    expect((await answer(unrelated)).status).toBe(500);
  });

  it("passes Fastify's own client errors through with their status; 5xx ones are 500s", async () => {
    expect(await answer(Object.assign(new Error('Request body is too large'), { statusCode: 413 }))).toEqual({
      status: 413,
      body: { detail: 'Request body is too large' },
    });
    expect((await answer(Object.assign(new Error('bad gateway'), { statusCode: 502 }))).status).toBe(500);
  });

  it('answers 409 for a failure on a conversation deleted meanwhile, 500 with an error id otherwise', async () => {
    gone.add('deleted-one');
    try {
      expect(await answer(new Error('store revoked'), 'deleted-one')).toEqual({
        status: 409,
        body: { detail: 'Conversation deleted-one was deleted' },
      });
    } finally {
      gone.delete('deleted-one');
    }
    const { status, body } = await answer(new Error('store revoked'), 'still-here');
    expect(status).toBe(500);
    expect(body).toEqual({
      detail: 'Internal Server Error',
      exception: 'Error: store revoked',
      error_id: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });

  it("hides every absolute path in a 500's exception when the server gave no workspace to keep", async () => {
    const { body } = await answer(new Error("ENOENT: no such file or directory, open '/srv/x/data/meta.json'"));
    expect(body.exception).toBe("Error: ENOENT: no such file or directory, open '<server path>'");
  });
});

describe('installErrorHandlers with describeException', () => {
  it("gives the describer the request's conversation id, and answers a bare class name when it fails", async () => {
    const seen: (string | undefined)[] = [];
    const described = Fastify({ logger: false });
    installErrorHandlers(described, {
      describeException: async (error, conversationId) => {
        seen.push(conversationId);
        if (conversationId === 'broken') throw new Error('the describer failed at /srv/secret/path');
        return `described ${String(error)}`;
      },
    });
    described.get('/throw/:conversation_id', async () => {
      throw new Error('boom');
    });
    described.get('/throw', async () => {
      throw new Error('boom');
    });
    try {
      const on = await described.inject({ method: 'GET', url: '/throw/c7' });
      expect(on.json()).toMatchObject({ exception: 'described Error: boom' });
      const without = await described.inject({ method: 'GET', url: '/throw' });
      expect(without.json()).toMatchObject({ exception: 'described Error: boom' });
      const broken = await described.inject({ method: 'GET', url: '/throw/broken' });
      expect(broken.statusCode).toBe(500);
      expect(broken.json()).toMatchObject({ detail: 'Internal Server Error', exception: 'Error' });
      expect(seen).toEqual(['c7', undefined, 'broken']);
    } finally {
      await described.close();
    }
  });
});

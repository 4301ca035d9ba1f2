// What the server's logger does with secrets, rule by rule: key-like query names in any spelling (and only names,
// never values), and whatever is logged under `req` that is not a Fastify request (text, a plain object with a URL,
// headers in any case). The logger is Fastify's own pino with the server's options, writing to an array.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactHeaders, redactingLoggerOptions, redactUrl } from '../../src/security/index.js';

describe('redactUrl', () => {
  it('redacts a query that is the whole reference', () => {
    expect(redactUrl('?token=abc&x=1')).toBe(`?token=${REDACTED}&x=1`);
  });

  it('judges a name once its percent-encoding is undone', () => {
    expect(redactUrl('/a?%74oken=abc&api%5Fk%65y=def&x=%74oken')).toBe(
      `/a?%74oken=${REDACTED}&api%5Fk%65y=${REDACTED}&x=%74oken`,
    );
  });

  it('judges a malformed name as written, without throwing', () => {
    expect(redactUrl('/a?api_key%=abc&%E0%A4%A=1')).toBe(`/a?api_key%=${REDACTED}&%E0%A4%A=1`);
  });

  it('never judges a value as a name: a search for "token" stays readable', () => {
    const url = '/api/search?q=api_key&=token-value&flag&token';
    expect(redactUrl(url)).toBe(url);
  });
});

describe('redactHeaders', () => {
  it('censors secret headers in any case and keeps the others', () => {
    expect(
      redactHeaders({ Authorization: 'Bearer b', 'X-Session-API-Key': 'k', COOKIE: 'c', accept: 'application/json' }),
    ).toEqual({ Authorization: REDACTED, 'X-Session-API-Key': REDACTED, COOKIE: REDACTED, accept: 'application/json' });
  });
});

describe('the logger options', () => {
  const logged = (object: Record<string, unknown>): Record<string, unknown> => {
    const lines: string[] = [];
    const app = Fastify({
      logger: { level: 'info', ...redactingLoggerOptions(), stream: { write: (line: string) => lines.push(line) } },
    });
    app.log.info(object, 'logged');
    const line = lines
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((entry) => entry.msg === 'logged');
    expect(line).toBeDefined();
    return line as Record<string, unknown>;
  };

  it('log text under `req` as a value, its query redacted', () => {
    expect(logged({ req: 'GET /x?token=abc&limit=5' }).req).toEqual({ value: `GET /x?token=${REDACTED}&limit=5` });
    expect(logged({ req: null }).req).toEqual({ value: 'null' });
  });

  it('copy a plain object under `req`, its URL redacted, whether or not it has headers', () => {
    expect(logged({ req: { method: 'GET', url: '/x?session_api_key=abc' } }).req).toEqual({
      method: 'GET',
      url: `/x?session_api_key=${REDACTED}`,
    });
    expect(logged({ req: { url: 7, headers: null } }).req).toEqual({ url: 7, headers: null });
  });

  it('censor the headers of a plain object under `req` in any case', () => {
    const headers = { Authorization: 'Bearer b', 'X-Session-API-Key': 'k', 'Set-Cookie': 's', Accept: 'text/plain' };
    expect(logged({ req: { headers } }).req).toEqual({
      headers: { Authorization: REDACTED, 'X-Session-API-Key': REDACTED, 'Set-Cookie': REDACTED, Accept: 'text/plain' },
    });
  });

  it('censor key fields at the top and one or two levels down', () => {
    const line = logged({ api_key: 'a', llm: { apiKey: 'b', model: 'm' }, agent: { llm: { password: 'c' } } });
    expect(line).toMatchObject({
      api_key: REDACTED,
      llm: { apiKey: REDACTED, model: 'm' },
      agent: { llm: { password: REDACTED } },
    });
  });
});

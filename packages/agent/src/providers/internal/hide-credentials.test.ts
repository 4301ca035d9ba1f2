import { describe, expect, it } from 'vitest';
import { hideCredentials, llmCredentials } from './hide-credentials.js';

const none = { apiKey: undefined, headers: undefined, baseURL: undefined };

describe('llmCredentials', () => {
  it('takes the API key, every header value and the token of an `<scheme> <token>` header', () => {
    const credentials = llmCredentials({
      ...none,
      apiKey: 'sk-api-key-0123',
      headers: { Authorization: 'Bearer tok-bearer-4567', 'api-key': 'azure-header-89ab' },
    });
    expect(credentials.sort()).toEqual(
      ['sk-api-key-0123', 'Bearer tok-bearer-4567', 'tok-bearer-4567', 'azure-header-89ab'].sort(),
    );
  });

  it('leaves out values shorter than 8 characters and repeats', () => {
    expect(llmCredentials({ ...none, apiKey: 'k', headers: { a: '1234567', b: '12345678', c: '12345678' } })).toEqual([
      '12345678',
    ]);
    expect(llmCredentials(none)).toEqual([]);
  });

  it("takes the base URL's userinfo and query values, as written and decoded", () => {
    const credentials = llmCredentials({
      ...none,
      baseURL: 'https://tok%2Fen-user-abc:pass%40word-123@llm.example.invalid/v1?key=query-key-0987&v=1',
    });
    expect(credentials.sort()).toEqual(
      ['tok%2Fen-user-abc', 'tok/en-user-abc', 'pass%40word-123', 'pass@word-123', 'query-key-0987'].sort(),
    );
  });

  it('keeps the userinfo and query of a base URL whose password has a bare `%` (not an escape)', () => {
    // fetch refuses a URL with credentials and names it whole in its TypeError: the raw password must be hidden.
    const credentials = llmCredentials({
      ...none,
      baseURL: 'http://user-name-1:p%ss-word-1234@127.0.0.1:1/v1?key=query-key-0987',
    });
    expect(credentials.sort()).toEqual(['p%ss-word-1234', 'query-key-0987', 'user-name-1'].sort());
  });

  it('ignores a base URL that is not a URL', () => {
    expect(llmCredentials({ ...none, apiKey: 'sk-api-key-0123', baseURL: 'not a url at all' })).toEqual([
      'sk-api-key-0123',
    ]);
  });
});

describe('hideCredentials', () => {
  const key = 'sk-api-key-0123456789';

  it('hides the credentials and their encodings in the error and its causes, in place', () => {
    const body = { error: { message: `Incorrect API key provided: ${key}` } };
    const cause = Object.assign(new Error(`401 ${Buffer.from(key).toString('base64')}`), { error: body });
    const error = new Error(`request with ${encodeURIComponent(key)} failed`, { cause });
    expect(hideCredentials(error, [key])).toBe(error);
    expect(error.message).toBe('request with <secret-hidden> failed');
    expect(cause.message).toBe('401 <secret-hidden>');
    expect(cause.error).toEqual({ error: { message: 'Incorrect API key provided: <secret-hidden>' } });
    expect(`${error.stack}${cause.stack}`).not.toContain(key);
  });

  it("hides the password of a base URL with a bare `%` in fetch's refusal, which names the URL whole", async () => {
    const baseURL = 'http://user-name-1:p%ss-word-1234@127.0.0.1:1/v1';
    // Refused before any connection: fetch does not take a URL with credentials.
    const refusal = await fetch(baseURL).then(
      () => undefined,
      (reason: unknown) => reason as Error,
    );
    expect(refusal?.message).toContain('p%ss-word-1234');
    hideCredentials(refusal as Error, llmCredentials({ ...none, baseURL }));
    expect(refusal?.message).not.toContain('p%ss-word-1234');
    expect(refusal?.stack).not.toContain('p%ss-word-1234');
  });

  it('leaves an error alone when there is no credential', () => {
    const error = new Error(`mentions ${key}`);
    expect(hideCredentials(error, [])).toBe(error);
    expect(error.message).toBe(`mentions ${key}`);
  });
});

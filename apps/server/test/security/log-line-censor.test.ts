// Credentials in log lines under any spelling of their key: the server's logger (Fastify's pino with the server's
// options) writing to an array, and the line censor on its own.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactingLoggerOptions } from '../../src/security/index.js';
import { censorLogLine, isSensitiveLogKey } from '../../src/security/log-line-censor.js';

const secret = 'sk-live-0123456789abcdef';

/** The lines the server's logger writes while `log` runs, parsed. */
function logLines(log: (app: ReturnType<typeof Fastify>) => void): Array<Record<string, unknown>> {
  const lines: string[] = [];
  const app = Fastify({
    logger: { level: 'info', ...redactingLoggerOptions(), stream: { write: (line: string) => lines.push(line) } },
  });
  log(app);
  expect(lines.join('')).not.toContain(secret);
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the server logger and credentials under any key spelling', () => {
  it('censors headers named in any case, whatever object holds them', () => {
    const headers = {
      Authorization: `Basic ${secret}`,
      'X-Api-Key': secret,
      'x-API-key': secret,
      'Proxy-Authorization': secret,
      COOKIE: secret,
      Accept: 'application/json',
    };
    const [line] = logLines((app) => app.log.info({ upstream: { request: { headers } } }, 'called'));
    expect(line?.upstream).toEqual({
      request: {
        headers: {
          Authorization: REDACTED,
          'X-Api-Key': REDACTED,
          'x-API-key': REDACTED,
          'Proxy-Authorization': REDACTED,
          COOKIE: REDACTED,
          Accept: 'application/json',
        },
      },
    });
  });

  it('censors key fields in any case and at any depth, and leaves look-alike names', () => {
    const [line] = logLines((app) =>
      app.log.info(
        {
          API_KEY: secret,
          Api_Key: secret,
          config: { llm: { provider: { ApiKey: secret, Password: secret, GITHUB_TOKEN: secret } } },
          list: [{ client_secret: secret }, { Secret_Key: secret }],
          usage: { max_tokens: 5, prompt_tokens: 7, tokenizer: 'bpe', secret_names: ['A'] },
        },
        'configured',
      ),
    );
    expect(line).toMatchObject({
      API_KEY: REDACTED,
      Api_Key: REDACTED,
      config: { llm: { provider: { ApiKey: REDACTED, Password: REDACTED, GITHUB_TOKEN: REDACTED } } },
      list: [{ client_secret: REDACTED }, { Secret_Key: REDACTED }],
      usage: { max_tokens: 5, prompt_tokens: 7, tokenizer: 'bpe', secret_names: ['A'] },
    });
  });

  it("censors an error's properties, a child logger's bindings and raw header lists", () => {
    const error = Object.assign(new Error('request failed'), { config: { headers: { authorization: secret } } });
    const lines = logLines((app) => {
      app.log.error({ err: error }, 'upstream failed');
      app.log.child({ Authorization: secret }).info('bound');
      app.log.info({ rawHeaders: ['Host', 'x', 'X-Api-Key', secret] }, 'raw');
    });
    expect(lines.map((line) => line.msg)).toEqual(['upstream failed', 'bound', 'raw']);
    expect(lines[0]?.err).toMatchObject({ config: { headers: { authorization: REDACTED } } });
    expect(lines[1]?.Authorization).toBe(REDACTED);
    expect(lines[2]?.rawHeaders).toEqual(['Host', 'x', 'X-Api-Key', REDACTED]);
  });
});

describe('censorLogLine', () => {
  it('returns a line without a sensitive key as it is, byte for byte', () => {
    const line = '{"level":30,"msg":"incoming request","req":{"url":"/x"},"max_tokens":4}\n';
    expect(censorLogLine(line)).toBe(line);
    expect(censorLogLine('not json but "token": here\n')).toBe('not json but "token": here\n');
  });

  it('keeps the line end', () => {
    expect(censorLogLine(`{"Token":"${secret}"}\n`)).toBe(`{"Token":"${REDACTED}"}\n`);
    expect(censorLogLine(`{"Token":"${secret}"}`)).toBe(`{"Token":"${REDACTED}"}`);
  });

  it('judges names by their letters and digits only', () => {
    for (const name of ['authorization', 'X-API-KEY', 'x_api_key', 'apiKey', 'set-cookie', 'session.key', 'passwd']) {
      expect({ name, sensitive: isSensitiveLogKey(name) }).toEqual({ name, sensitive: true });
    }
    for (const name of ['tokens', 'max_tokens', 'tokenizer', 'keys', 'monkey', 'author', 'secret_names', 'id']) {
      expect({ name, sensitive: isSensitiveLogKey(name) }).toEqual({ name, sensitive: false });
    }
  });
});

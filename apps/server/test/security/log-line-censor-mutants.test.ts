// Credential names the line censor must know however they are spelled (separators inside a word, British spelling,
// plurals, numbers, JSON escapes), and lines it must leave byte for byte when no name is a credential's.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactingLoggerOptions } from '../../src/security/index.js';
import { censorLogLine } from '../../src/security/log-line-censor.js';

const secret = 'sk-live-fedcba9876543210';

/** Names a credential is logged under by some client, SDK or environment. */
const credentialNames = [
  'PASS_PHRASE',
  'ssh-pass-phrase',
  'pass_word',
  'Pass-Wd',
  'to_ken',
  'SE-CRET',
  'cook_ie',
  'creden-tials',
  'Authorisation',
  'Proxy-Authorisation',
  'api_keys',
  'apiKeys',
  'cookies',
  'secrets',
  'passwords',
  'OPENAI_API_KEY_2',
  'apiKey2',
  'pass\tword',
  'pass\u0001word',
  'api"key',
];

function logLines(log: (app: ReturnType<typeof Fastify>) => void): string {
  const lines: string[] = [];
  const app = Fastify({
    logger: { level: 'info', ...redactingLoggerOptions(), stream: { write: (line: string) => lines.push(line) } },
  });
  log(app);
  return lines.join('');
}

describe('credential names in any spelling', () => {
  it('are censored by the server logger, at the top and nested', () => {
    const text = logLines((app) => {
      for (const name of credentialNames) {
        app.log.info({ [name]: secret }, 'top');
        app.log.info({ upstream: { config: { [name]: [secret] } } }, 'nested');
      }
    });
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(credentialNames.length * 2);
    expect(text).not.toContain(secret);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ PASS_PHRASE: REDACTED, msg: 'top' });
    expect(JSON.parse(lines[1] ?? '{}')).toMatchObject({ upstream: { config: { PASS_PHRASE: REDACTED } } });
  });

  it('are censored in a line on its own, the value whatever its type', () => {
    for (const name of credentialNames) {
      for (const value of [secret, false, 0, null, { nested: secret }]) {
        const censored = censorLogLine(`${JSON.stringify({ level: 30, [name]: value })}\n`);
        expect({ name, value, censored: JSON.parse(censored) }).toEqual({
          name,
          value,
          censored: { level: 30, [name]: REDACTED },
        });
      }
    }
  });

  it('are censored as the value after the name in a raw header list', () => {
    const line = JSON.stringify({
      rawHeaders: ['Host', 'h', 'Authorisation', `Bearer ${secret}`, 'X-Api-Keys', secret],
    });
    expect(JSON.parse(censorLogLine(line))).toEqual({
      rawHeaders: ['Host', 'h', 'Authorisation', REDACTED, 'X-Api-Keys', REDACTED],
    });
  });

  it('leave counts and lists of names that only look alike', () => {
    const line = JSON.stringify({
      usage: { prompt_tokens: 3, completion_tokens_2: 4, max_tokens: 9 },
      secret_names: ['GITHUB_TOKEN'],
      secrets_encrypted: false,
      cookie_count: 2,
      keys: ['a'],
    });
    expect(censorLogLine(line)).toBe(line);
  });
});

describe('a line with no credential', () => {
  // Another serializer's line (spaces, escapes, number forms) that names look-alikes in objects and arrays is not
  // re-serialized: what was written is what the log gets.
  it('comes back byte for byte, however it was written', () => {
    for (const line of [
      '{ "level": 30, "usage": { "max_tokens": 1.50, "prompt_tokens": 1e3 }, "msg": "tokens counted" }\n',
      '{"level":30,"list":[ {"secret_names": ["A"]}, 2.0 ],"msg":"caf\\u00e9 token"}',
      '{"level":30,"pairs":[["tokenizer","bpe"],["keys", [1.0]]],"msg":"x"}\n',
      '[{"max_tokens":4.0}]',
    ]) {
      expect(censorLogLine(line)).toBe(line);
    }
  });

  it('keeps every other byte of a line it censors', () => {
    const line = `{"level":30,"usage":{"max_tokens":5},"list":[1,"a"],"config":{"apiKey":"${secret}"}}\n`;
    expect(censorLogLine(line)).toBe(
      `{"level":30,"usage":{"max_tokens":5},"list":[1,"a"],"config":{"apiKey":"${REDACTED}"}}\n`,
    );
  });
});

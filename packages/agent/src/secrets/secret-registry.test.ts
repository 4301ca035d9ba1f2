import { describe, expect, it } from 'vitest';
import { InvalidSecretsError } from './invalid-secrets-error.js';
import { createSecretCipher } from './secret-cipher.js';
import { SecretRegistry } from './secret-registry.js';

function collectingLogger() {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (message: string) => warnings.push(message) } };
}

describe('SecretRegistry.envFor', () => {
  it('picks secrets whose name appears in the command, case-insensitively', async () => {
    const registry = new SecretRegistry({ GITHUB_TOKEN: 'ghp_one', API_KEY: 'key_two', UNUSED: 'three' });
    expect(await registry.envFor('echo $github_token && curl -H "x: $Api_Key"')).toEqual({
      GITHUB_TOKEN: 'ghp_one',
      API_KEY: 'key_two',
    });
    expect(await registry.envFor('ls -la')).toEqual({});
  });

  it('evaluates sync and async functions when a command uses them, each time', async () => {
    let issued = 0;
    const registry = new SecretRegistry({
      SESSION: () => `session-${++issued}`,
      REMOTE: async () => 'remote-value',
      IDLE: () => 'never-called',
    });
    expect(await registry.envFor('use $SESSION and $REMOTE')).toEqual({ SESSION: 'session-1', REMOTE: 'remote-value' });
    expect(await registry.envFor('use $session')).toEqual({ SESSION: 'session-2' });
    expect(registry.knownValues().sort()).toEqual(['remote-value', 'session-1', 'session-2']);
  });

  it('leaves out secrets without a value and functions that fail, with a warning', async () => {
    const { warnings, logger } = collectingLogger();
    const registry = new SecretRegistry(
      {
        EMPTY: { description: 'no value yet' },
        BROKEN: () => {
          throw new Error('vault unreachable');
        },
        WRONG: (() => 42) as unknown as () => string,
      },
      { logger },
    );
    expect(await registry.envFor('$EMPTY $BROKEN $WRONG')).toEqual({});
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('BROKEN');
    expect(warnings[0]).toContain('vault unreachable');
    expect(warnings[1]).toContain('WRONG');
  });
});

describe('SecretRegistry.update', () => {
  it('adds and replaces secrets by name', async () => {
    const registry = new SecretRegistry({ A_TOKEN: 'first-value' });
    registry.update({ A_TOKEN: { value: 'second-value', description: 'rotated' }, B_TOKEN: 'other-value' });
    expect(registry.names()).toEqual(['A_TOKEN', 'B_TOKEN']);
    expect(registry.describe('A_TOKEN')).toBe('rotated');
    expect(await registry.envFor('$A_TOKEN')).toEqual({ A_TOKEN: 'second-value' });
    // The replaced value is still known (and masked): see 'keeps masking a value after it is replaced'.
    expect(registry.knownValues()).toEqual(['second-value', 'other-value', 'first-value']);
  });

  it('rejects bad input with a typed error naming the secret and changes nothing', () => {
    const registry = new SecretRegistry({ KEEP: 'kept-value' });
    expect(() => registry.update({ OK: 'fine', '': 'x' })).toThrow(InvalidSecretsError);
    const error = (() => {
      try {
        registry.update({ BAD: { value: 5 as unknown as string } });
      } catch (caught) {
        return caught as InvalidSecretsError;
      }
      throw new Error('expected an error');
    })();
    expect(error.path).toBe('BAD.value');
    expect(() => registry.update({ NUL: null as unknown as string })).toThrow(/NUL/);
    expect(registry.names()).toEqual(['KEEP']);
  });
});

describe('SecretRegistry.mask', () => {
  it('hides every known value, longest first, and skips values shorter than 3 characters', () => {
    const registry = new SecretRegistry({ SHORT: 'ab', PREFIX: 'tok', FULL: 'tok_1234567' });
    expect(registry.mask('got tok_1234567 and tok and ab')).toBe('got <secret-hidden> and <secret-hidden> and ab');
  });

  it('hides overlapping values whole', () => {
    const registry = new SecretRegistry({ LEFT: 'alpha-beta', RIGHT: 'beta-gamma' });
    expect(registry.mask('[alpha-beta-gamma]')).toBe('[<secret-hidden>]');
  });

  it('keeps masking a value after it is replaced: the shell it was exported to still has it', async () => {
    const registry = new SecretRegistry({ GITHUB_TOKEN: 'ghp_old_token_1234' });
    expect(await registry.envFor('git push # $GITHUB_TOKEN')).toEqual({ GITHUB_TOKEN: 'ghp_old_token_1234' });
    registry.update({ GITHUB_TOKEN: 'ghp_new_token_5678' });
    registry.update({ GITHUB_TOKEN: { description: 'revoked, no value now' } });
    // What `env` prints in the session the old token was exported to.
    expect(registry.mask('GITHUB_TOKEN=ghp_old_token_1234 NEXT=ghp_new_token_5678')).toBe(
      'GITHUB_TOKEN=<secret-hidden> NEXT=<secret-hidden>',
    );
    expect(await registry.envFor('$GITHUB_TOKEN')).toEqual({});
    expect(JSON.stringify(registry.toJSON())).not.toMatch(/ghp_(old|new)_token/);
  });

  it('hides values computed by functions once they have been used', async () => {
    const registry = new SecretRegistry({ DYNAMIC: async () => 'dyn-secret-7' });
    expect(registry.mask('dyn-secret-7')).toBe('dyn-secret-7');
    await registry.envFor('$DYNAMIC');
    expect(registry.mask('output: dyn-secret-7')).toBe('output: <secret-hidden>');
  });
});

describe('SecretRegistry JSON', () => {
  const values = { GITHUB_TOKEN: 'ghp_plain_value_1', API_KEY: 'sk-plain-value-2' };

  it('redacts every value without a cipher and never writes one in clear text', async () => {
    const registry = new SecretRegistry({
      GITHUB_TOKEN: { value: values.GITHUB_TOKEN, description: 'GitHub' },
      API_KEY: values.API_KEY,
      COMPUTED: () => 'computed-value-3',
      NO_VALUE: { description: 'unset' },
    });
    await registry.envFor('$COMPUTED');
    const json = registry.toJSON();
    expect(json).toEqual({
      secret_sources: {
        GITHUB_TOKEN: { description: 'GitHub', value: '**********', kind: 'StaticSecret' },
        API_KEY: { value: '**********', kind: 'StaticSecret' },
        COMPUTED: { description: expect.stringMatching(/computed/i), value: '**********', kind: 'StaticSecret' },
        NO_VALUE: { description: 'unset', kind: 'StaticSecret' },
      },
    });
    const text = JSON.stringify(json);
    for (const value of [...Object.values(values), 'computed-value-3']) expect(text).not.toContain(value);

    const restored = SecretRegistry.fromJSON(JSON.parse(text));
    expect(restored.names()).toEqual(['GITHUB_TOKEN', 'API_KEY', 'COMPUTED', 'NO_VALUE']);
    expect(restored.describe('GITHUB_TOKEN')).toBe('GitHub');
    expect(restored.knownValues()).toEqual([]);
    expect(await restored.envFor('$GITHUB_TOKEN $API_KEY')).toEqual({});
  });

  it('round-trips values encrypted with a cipher, never in clear text', async () => {
    const cipher = createSecretCipher('storage key');
    const registry = new SecretRegistry({ GITHUB_TOKEN: { value: values.GITHUB_TOKEN, description: 'GitHub' } });
    registry.update({ API_KEY: values.API_KEY });
    const json = registry.toJSON({ cipher });
    const text = JSON.stringify(json);
    for (const value of Object.values(values)) expect(text).not.toContain(value);
    expect(String(json.secret_sources.API_KEY?.value).startsWith('gAAAAA')).toBe(true);

    const restored = SecretRegistry.fromJSON(JSON.parse(text), { cipher });
    expect(await restored.envFor('$github_token $api_key')).toEqual(values);
    expect(restored.describe('GITHUB_TOKEN')).toBe('GitHub');
  });

  it('keeps a value that already is a token for the cipher', () => {
    const cipher = createSecretCipher('storage key');
    const token = cipher.encrypt('inner');
    const json = new SecretRegistry({ WRAPPED: token }).toJSON({ cipher });
    expect(json.secret_sources.WRAPPED?.value).toBe(token);
  });

  it('loads an undecryptable value (wrong key) as no value, with a warning', async () => {
    const json = new SecretRegistry(values).toJSON({ cipher: createSecretCipher('right key') });
    const { warnings, logger } = collectingLogger();
    const restored = SecretRegistry.fromJSON(json, { cipher: createSecretCipher('wrong key'), logger });
    expect(restored.names()).toEqual(['GITHUB_TOKEN', 'API_KEY']);
    expect(await restored.envFor('$GITHUB_TOKEN $API_KEY')).toEqual({});
    expect(restored.knownValues()).toEqual([]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('GITHUB_TOKEN');
  });

  it('reads null, blank and redacted values as no value and other values as plaintext', async () => {
    const cipher = createSecretCipher('key');
    const restored = SecretRegistry.fromJSON(
      {
        secret_sources: {
          NULL_VALUE: { description: null, value: null, kind: 'StaticSecret' },
          BLANK: { value: '   ', kind: 'StaticSecret' },
          REDACTED: { value: '**********', kind: 'StaticSecret' },
          PLAIN: { value: 'plain-text-value', kind: 'StaticSecret' },
        },
      },
      { cipher },
    );
    expect(await restored.envFor('$NULL_VALUE $BLANK $REDACTED $PLAIN')).toEqual({ PLAIN: 'plain-text-value' });
    expect(restored.describe('NULL_VALUE')).toBeUndefined();
    expect(SecretRegistry.fromJSON({}).names()).toEqual([]);
  });

  it('without a cipher, keeps a token-looking value as plaintext', async () => {
    const token = createSecretCipher('key').encrypt('x');
    const restored = SecretRegistry.fromJSON({ secret_sources: { T: { value: token, kind: 'StaticSecret' } } });
    expect(await restored.envFor('$T')).toEqual({ T: token });
  });

  it("keeps the reference's LookupSecrets and custom sources as written, without a value, and writes them back", async () => {
    const cipher = createSecretCipher('storage key');
    const lookup = {
      description: 'from the vault',
      url: 'http://127.0.0.1:8000/secrets/x',
      headers: { Accept: 'text/plain', Authorization: cipher.encrypt('Bearer t') },
      kind: 'LookupSecret',
    };
    const custom = { region: 'eu', kind: 'MySecretSource' };
    const json = {
      secret_sources: { REMOTE: lookup, MINE: custom, PLAIN: { value: cipher.encrypt('v4lue'), kind: 'StaticSecret' } },
    };
    const restored = SecretRegistry.fromJSON(json, { cipher });
    expect(restored.names()).toEqual(['PLAIN']);
    expect(await restored.envFor('$REMOTE $MINE $PLAIN')).toEqual({ PLAIN: 'v4lue' });
    const written = restored.toJSON({ cipher });
    expect(written.secret_sources.REMOTE).toEqual(lookup);
    expect(written.secret_sources.MINE).toEqual(custom);
    // A value set in x replaces the kept source.
    restored.update({ REMOTE: 'now-static' });
    expect(restored.toJSON().secret_sources.REMOTE).toEqual({ value: '**********', kind: 'StaticSecret' });
  });

  it('rejects JSON of the wrong shape with a typed error naming the field', () => {
    const wrong = { secret_sources: { REMOTE: { value: 42, kind: 'StaticSecret' } } };
    expect(() => SecretRegistry.fromJSON(wrong)).toThrow(InvalidSecretsError);
    expect(() => SecretRegistry.fromJSON(wrong)).toThrow(/secret_sources\.REMOTE/);
    expect(() => SecretRegistry.fromJSON({ secret_sources: { X: { url: 'u' } } })).toThrow(/secret_sources\.X/);
    expect(() => SecretRegistry.fromJSON({ secret_sources: [] })).toThrow(/secret_sources/);
    expect(() => SecretRegistry.fromJSON('nope')).toThrow(InvalidSecretsError);
  });
});

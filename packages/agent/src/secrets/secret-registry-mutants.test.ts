import { describe, expect, it } from 'vitest';
import { InvalidSecretsError } from './invalid-secrets-error.js';
import { SecretRegistry } from './secret-registry.js';

function rejection(update: () => void): InvalidSecretsError {
  try {
    update();
  } catch (error) {
    if (error instanceof InvalidSecretsError) return error;
    throw error;
  }
  throw new Error('expected an InvalidSecretsError');
}

describe('SecretRegistry.empty', () => {
  it('is true only while no secret is registered, with or without a value', () => {
    const registry = new SecretRegistry();
    expect(registry.empty).toBe(true);
    registry.update({ LATER: { description: 'no value yet' } });
    expect(registry.empty).toBe(false);
    expect(new SecretRegistry({ ONE: 'one-value' }).empty).toBe(false);
  });
});

describe('SecretRegistry.mask with a single secret', () => {
  it('hides the value of a registry holding one static secret', () => {
    const registry = new SecretRegistry({ ONLY_TOKEN: 'only-secret-value' });
    expect(registry.mask('echo only-secret-value')).toBe('echo <secret-hidden>');
    expect(registry.mask(Buffer.from('only-secret-value').toString('base64'))).toBe('<secret-hidden>');
  });
});

describe('SecretRegistry.toJSON of function secrets', () => {
  it('describes a function secret as computed, after its own description when it has one', () => {
    const json = new SecretRegistry({
      BARE: () => 'bare-value',
      DESCRIBED: { value: () => 'described-value', description: 'Short-lived token' },
    }).toJSON();
    const computed = 'Computed by a function when used; the value is not stored';
    expect(json.secret_sources.BARE).toEqual({ description: computed, value: '**********', kind: 'StaticSecret' });
    expect(json.secret_sources.DESCRIBED).toEqual({
      description: `Short-lived token (${computed})`,
      value: '**********',
      kind: 'StaticSecret',
    });
  });
});

describe('SecretRegistry.update errors', () => {
  it('names what was given instead of a secret, never the value', () => {
    const cases: Array<[unknown, string, string]> = [
      [42, 'BAD', 'got number'],
      [null, 'BAD', 'got null'],
      [['array-secret-value'], 'BAD', 'got an array'],
      [true, 'BAD', 'got boolean'],
      [{ value: 42 }, 'BAD.value', 'got number'],
      [{ value: ['array-secret-value'] }, 'BAD.value', 'got an array'],
      [{ value: 'fine-value', description: 7 }, 'BAD.description', 'got number'],
    ];
    for (const [input, path, got] of cases) {
      const error = rejection(() => new SecretRegistry().update({ BAD: input as string }));
      expect({ path: error.path, message: error.message }).toEqual({
        path,
        message: expect.stringContaining(`at ${path}: expected`),
      });
      expect(error.message.endsWith(got)).toBe(true);
      expect(error.message).not.toContain('array-secret-value');
      expect(error.message).not.toContain('fine-value');
    }
  });

  it('rejects an array rather than registering a secret without a value, whose contents would never be masked', () => {
    const registry = new SecretRegistry({ KEEP: 'kept-value' });
    expect(() => registry.update({ KEYS: ['array-secret-value'] as unknown as string })).toThrow(InvalidSecretsError);
    expect(registry.names()).toEqual(['KEEP']);
  });

  it('takes a function given as `{ value }` and computes it when a command names it', async () => {
    const registry = new SecretRegistry({ WRAPPED: { value: async () => 'wrapped-value', description: 'vault' } });
    expect(await registry.envFor('echo $WRAPPED')).toEqual({ WRAPPED: 'wrapped-value' });
    expect(registry.mask('got wrapped-value')).toBe('got <secret-hidden>');
  });
});

describe('SecretRegistry warnings', () => {
  it('masks the known secrets a failing secret function quotes in its error, in any spelling', async () => {
    const warnings: string[] = [];
    const vaultToken = 'hvs.vault-static-token';
    let issued = 0;
    const registry = new SecretRegistry(
      {
        VAULT_TOKEN: vaultToken,
        SESSION: () => {
          issued += 1;
          if (issued === 1) return 'session-first-value';
          throw new Error(
            `GET https://vault.test/v1/renew?token=${encodeURIComponent(vaultToken)} refused session-first-value, ` +
              `header ${Buffer.from(`Bearer ${vaultToken}`).toString('base64')}`,
          );
        },
      },
      { logger: { warn: (message) => warnings.push(message) } },
    );
    expect(await registry.envFor('use $SESSION')).toEqual({ SESSION: 'session-first-value' });
    expect(await registry.envFor('use $SESSION')).toEqual({});
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('secret SESSION: its function failed (GET https://vault.test/v1/renew?token=');
    expect(warnings[0]).not.toContain('vault-static-token');
    expect(warnings[0]).not.toContain('session-first-value');
    expect(warnings[0]).not.toContain(Buffer.from(`Bearer ${vaultToken}`).toString('base64').slice(0, 12));
    expect(warnings[0]?.match(/<secret-hidden>/g)).toHaveLength(3);
  });
});

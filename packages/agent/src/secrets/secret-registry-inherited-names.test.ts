import { describe, expect, it } from 'vitest';
import { secretEnvFor } from '../tools/secrets.js';
import { InvalidSecretsError } from './invalid-secrets-error.js';
import { createSecretCipher } from './secret-cipher.js';
import { SecretRegistry } from './secret-registry.js';

const INHERITED = ['constructor', 'toString', 'hasOwnProperty'];

describe('secrets named like inherited properties', () => {
  it('refuses a secret named __proto__ with a typed error naming it, and registers nothing', () => {
    const registry = new SecretRegistry({ KEPT: 'kept-value' });
    for (const register of [
      () => new SecretRegistry({ ['__proto__']: 'proto-value' }),
      () => registry.update({ OTHER: 'other-value', ['__proto__']: { value: 'proto-value' } }),
    ]) {
      const error = (() => {
        try {
          register();
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(InvalidSecretsError);
      expect(error).toMatchObject({ path: '__proto__' });
      expect((error as Error).message).toContain('a secret cannot be named __proto__');
    }
    expect(registry.names()).toEqual(['KEPT']);
  });

  it('gives constructor, toString and hasOwnProperty to commands and round-trips them through JSON', async () => {
    const cipher = createSecretCipher('storage key');
    const registry = new SecretRegistry(Object.fromEntries(INHERITED.map((name) => [name, `${name}-value`])));
    expect(await registry.envFor('echo $constructor $tostring $hasOwnProperty')).toEqual({
      constructor: 'constructor-value',
      toString: 'toString-value',
      hasOwnProperty: 'hasOwnProperty-value',
    });
    const restored = SecretRegistry.fromJSON(JSON.parse(JSON.stringify(registry.toJSON({ cipher }))), { cipher });
    expect(restored.names()).toEqual(INHERITED);
    expect(await restored.envFor('$constructor')).toEqual({ constructor: 'constructor-value' });
  });

  it('writes back a source named __proto__ another writer stored, byte for byte, with no secret of that name', async () => {
    const text =
      '{"secret_sources":{"__proto__":{"value":"**********","kind":"StaticSecret"},' +
      '"TOKEN":{"description":"d","kind":"StaticSecret"}}}';
    const restored = SecretRegistry.fromJSON(JSON.parse(text));
    expect(restored.names()).toEqual(['TOKEN']);
    expect(await restored.envFor('$__proto__ $TOKEN')).toEqual({});
    const written = JSON.stringify(restored.toJSON());
    expect(written).toBe(text);
    expect(JSON.stringify(SecretRegistry.fromJSON(JSON.parse(written)).toJSON())).toBe(text);
  });

  it('secretEnvFor gives a variable named __proto__ as a variable', () => {
    const env = secretEnvFor('echo $__proto__ $constructor', JSON.parse('{"__proto__": "p", "constructor": "c"}'));
    expect(Object.getPrototypeOf(env)).toBe(Object.prototype);
    expect(Object.entries(env)).toEqual([
      ['__proto__', 'p'],
      ['constructor', 'c'],
    ]);
  });
});

// `mask` compiles the registry's values once and keeps them: every change to what it knows must reach the next call.
import { describe, expect, it } from 'vitest';
import { SecretRegistry } from './secret-registry.js';

const hidden = '<secret-hidden>';

describe('SecretRegistry.mask after the values change', () => {
  it('hides a secret added after a first mask, and still the one it replaced', () => {
    const registry = new SecretRegistry({ TOKEN: 'first-token-value' });
    expect(registry.mask('a first-token-value b second-token-value')).toBe(`a ${hidden} b second-token-value`);
    registry.update({ TOKEN: 'second-token-value', OTHER: 'other-token-value' });
    expect(registry.mask('a first-token-value b second-token-value c other-token-value')).toBe(
      `a ${hidden} b ${hidden} c ${hidden}`,
    );
  });

  it('hides a value a secret function returned after a first mask', async () => {
    const registry = new SecretRegistry({ SESSION: () => 'computed-session-value' });
    expect(registry.mask('x computed-session-value')).toBe('x computed-session-value');
    expect(await registry.envFor('echo $SESSION')).toEqual({ SESSION: 'computed-session-value' });
    expect(registry.mask('x computed-session-value')).toBe(`x ${hidden}`);
  });

  it('hides a value given a value later, after masking while it had none', () => {
    const registry = new SecretRegistry({ LATER: { description: 'set later' } });
    expect(registry.mask('x later-secret-value')).toBe('x later-secret-value');
    registry.update({ LATER: 'later-secret-value' });
    expect(registry.mask('x later-secret-value')).toBe(`x ${hidden}`);
  });
});

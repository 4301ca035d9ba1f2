import { describe, expect, it } from 'vitest';
import { hideCredentialValues } from './credential-values.js';

describe('hideCredentialValues', () => {
  it('hides each value and its encoded forms, and leaves text without one as it is', () => {
    const credentials = ['env-token-123'];
    const base64 = Buffer.from('user:env-token-123').toString('base64');
    expect(hideCredentialValues(`got env-token-123 and ${base64}`, credentials)).toBe(
      'got <secret-hidden> and <secret-hidden>',
    );
    expect(hideCredentialValues('nothing here', credentials)).toBe('nothing here');
    expect(hideCredentialValues('env-token-123', [])).toBe('env-token-123');
  });
});

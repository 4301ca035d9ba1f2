import { describe, expect, it } from 'vitest';
import { maskSecrets, secretEnvFor } from './secrets.js';

describe('secretEnvFor', () => {
  it('picks the secrets whose name appears in the command, case-insensitively', () => {
    const secrets = { GITHUB_TOKEN: 'ghp_1', API_KEY: 'k', UNUSED: 'u' };
    expect(secretEnvFor('curl -H "Authorization: $github_token" && echo $API_KEY', secrets)).toEqual({
      GITHUB_TOKEN: 'ghp_1',
      API_KEY: 'k',
    });
    expect(secretEnvFor('ls', secrets)).toEqual({});
  });
});

describe('maskSecrets', () => {
  it('hides every occurrence, longest value first, ignoring empty values', () => {
    expect(maskSecrets('a=abc123 b=abc c=abc123', ['abc', 'abc123', ''])).toBe(
      'a=<secret-hidden> b=<secret-hidden> c=<secret-hidden>',
    );
    expect(maskSecrets('nothing here', [])).toBe('nothing here');
  });
});

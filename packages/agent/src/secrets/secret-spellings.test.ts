import { describe, expect, it } from 'vitest';
import { SecretRegistry } from './secret-registry.js';

/** A value with the characters that change its spelling: a space, `&`, `+`, `/`, `<`, a quote, non-ASCII. */
const value = 'my pa&ss+wo/rd<"é">';
const registry = new SecretRegistry({ API_PASSWORD: value });
const hidden = '<secret-hidden>';

describe('SecretRegistry.mask and the spellings a tool may print', () => {
  it('hides HTTP Basic credentials (the password at any byte of the base64) and the header line keeps its name', () => {
    for (const user of ['a', 'ab', 'abc', 'deploy-bot']) {
      const header = `Authorization: Basic ${Buffer.from(`${user}:${value}`).toString('base64')}`;
      expect(registry.mask(header), user).toBe(`Authorization: Basic ${hidden}`);
    }
  });

  it('hides the value escaped in a JSON string with \\u escapes of some characters', () => {
    const escapes = [
      JSON.stringify(value).slice(1, -1).replace('&', '\\u0026').replace('<', '\\u003c'),
      JSON.stringify(value).slice(1, -1).replace('é', '\\u00e9').replace('\\"', '\\u0022'),
      JSON.stringify(value).slice(1, -1).replace('/', '\\/').replace('é', '\\u00E9'),
    ];
    for (const escaped of escapes) expect(registry.mask(`{"password":"${escaped}"}`)).toBe(`{"password":"${hidden}"}`);
  });

  it('hides the value URL query-escaped with + for spaces', () => {
    const query = new URLSearchParams({ password: value, next: '/home' }).toString();
    expect(query).toContain('+');
    expect(registry.mask(`GET /login?${query}`)).toBe('GET /login?password=<secret-hidden>&next=%2Fhome');
  });

  it('hides the value split across lines by fold -w', () => {
    for (const width of [1, 3, 7]) {
      const folded = (`token=${value}`.match(new RegExp(`.{1,${width}}`, 'gu')) ?? []).join('\n');
      const masked = registry.mask(folded);
      expect(masked.replaceAll('\n', ''), `fold -w ${width}`).not.toContain('pa&ss+wo/rd');
      expect(masked, `fold -w ${width}`).toContain(hidden);
    }
  });

  it('hides the value inside colour codes, as grep --color=always prints it', () => {
    const coloured = `TOKEN=\x1b[01;31m\x1b[K${value.slice(0, 6)}\x1b[m\x1b[K${value.slice(6)}`;
    expect(registry.mask(coloured)).toBe(`TOKEN=\x1b[01;31m\x1b[K${hidden}`);
  });
});

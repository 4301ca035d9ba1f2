import { describe, expect, it } from 'vitest';
import { defaultMaxSessionsPerPrincipal } from './mcp-session-limits.js';

describe('defaultMaxSessionsPerPrincipal', () => {
  it('gives each key a quarter of the live sessions, rounded down, on a server with keys', () => {
    expect(defaultMaxSessionsPerPrincipal(100, true)).toBe(25);
    expect(defaultMaxSessionsPerPrincipal(10, true)).toBe(2);
  });

  it('gives each key at least one session, however small the cap', () => {
    expect(defaultMaxSessionsPerPrincipal(3, true)).toBe(1);
    expect(defaultMaxSessionsPerPrincipal(1, true)).toBe(1);
  });

  it('gives the one principal of a server without keys the whole cap', () => {
    expect(defaultMaxSessionsPerPrincipal(100, false)).toBe(100);
    expect(defaultMaxSessionsPerPrincipal(3, false)).toBe(3);
  });
});

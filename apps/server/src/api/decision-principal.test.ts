import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { decidingPrincipal, principalOf } from './decision-routes.js';

const requestWith = (key?: string | string[]) =>
  ({ headers: key === undefined ? {} : { 'x-session-api-key': key } }) as unknown as FastifyRequest;

const hashed = (key: string) => `api-key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;

describe('who decides on an action', () => {
  it('is the session key, named by the first 12 hex digits of its SHA-256 (never the key)', () => {
    const principal = principalOf(requestWith('key-one'), ['key-one', 'key-two']);
    expect(principal).toBe(hashed('key-one'));
    expect(principal).toMatch(/^api-key:[0-9a-f]{12}$/);
    expect(principal).not.toContain('key-one');
    // A single configured key counts as keys too.
    expect(principalOf(requestWith('key-one'), ['key-one'])).toBe(hashed('key-one'));
    // A repeated header: the first one.
    expect(principalOf(requestWith(['key-two', 'key-one']), ['key-one', 'key-two'])).toBe(hashed('key-two'));
  });

  it('is `local` on a server without keys, or for a request without one', () => {
    expect(principalOf(requestWith('anything'), [])).toBe('local');
    expect(principalOf(requestWith(), ['key-one'])).toBe('local');
  });

  it('is refused (403) when the server names its deciders and it is not one of them', () => {
    const options = { apiKeys: ['key-one', 'key-two'], approvalDeciders: [hashed('key-one')] };
    expect(decidingPrincipal(requestWith('key-one'), options)).toBe(hashed('key-one'));
    expect(() => decidingPrincipal(requestWith('key-two'), options)).toThrow(
      expect.objectContaining({ code: 'principal_not_allowed' }),
    );
    // Unrestricted: anyone decides.
    expect(decidingPrincipal(requestWith('key-two'), { apiKeys: ['key-one', 'key-two'] })).toBe(hashed('key-two'));
    expect(decidingPrincipal(requestWith(), { apiKeys: [] })).toBe('local');
  });
});

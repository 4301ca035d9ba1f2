import { afterEach, describe, expect, it } from 'vitest';
import { newEventId } from './ids.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newEventId', () => {
  afterEach(() => {
    delete (globalThis.crypto as { randomUUID?: unknown }).randomUUID;
  });

  it('is a lowercase UUID v4 from Web Crypto', () => {
    expect(newEventId()).toMatch(UUID_V4);
  });

  it('makes one from getRandomValues where randomUUID is missing (a page served over plain http)', () => {
    // An own property shadows the prototype's method, as in an insecure browser context.
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
    const ids = new Set(Array.from({ length: 200 }, () => newEventId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(UUID_V4);
  });
});

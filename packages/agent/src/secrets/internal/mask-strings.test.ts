import { describe, expect, it } from 'vitest';
import { maskStrings } from './mask-strings.js';

describe('maskStrings', () => {
  it('masks every string field at any depth, but not the kind and type discriminators', () => {
    const observation = {
      kind: 'FileEditorObservation',
      content: [
        { type: 'text', text: 'the S' },
        { type: 'image', image_urls: ['data:S'] },
      ],
      old_content: 'S before',
      diff: { lines: ['+S'], count: 1, ok: true, none: null },
    };
    const masked = maskStrings(observation, (text) => text.replaceAll('S', '#'));
    expect(masked).toEqual({
      kind: 'FileEditorObservation',
      content: [
        { type: 'text', text: 'the #' },
        { type: 'image', image_urls: ['data:#'] },
      ],
      old_content: '# before',
      diff: { lines: ['+#'], count: 1, ok: true, none: null },
    });
  });
});

describe('maskStrings copy on write', () => {
  it('returns the value itself when the mask changes nothing, and copies only the path to a change', () => {
    const untouched = { kind: 'X', content: [{ type: 'text', text: 'plain' }], meta: { n: 1 } };
    expect(maskStrings(untouched, (text) => text)).toBe(untouched);

    const observation = { kind: 'X', content: [{ type: 'text', text: 'the S' }], meta: { n: 1 }, tags: ['a', 'b'] };
    const masked = maskStrings(observation, (text) => text.replaceAll('S', '#'));
    expect(masked).not.toBe(observation);
    expect(masked.content[0]).toEqual({ type: 'text', text: 'the #' });
    expect(masked.meta).toBe(observation.meta);
    expect(masked.tags).toBe(observation.tags);
    // The input is never changed.
    expect(observation.content[0]?.text).toBe('the S');
  });

  it('keeps a __proto__ field a field when masking it', () => {
    const observation = JSON.parse('{"kind":"X","__proto__":"S"}') as Record<string, unknown>;
    const masked = maskStrings(observation, (text) => text.replaceAll('S', '#'));
    expect(Object.getPrototypeOf(masked)).toBe(Object.prototype);
    expect(Object.hasOwn(masked, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(masked, '__proto__')?.value).toBe('#');
  });

  it('gives the masked copy ordinary fields, which can be reassigned and deleted', () => {
    const masked = maskStrings({ kind: 'X', text: 'S', other: 'S' }, (text) => text.replaceAll('S', '#'));
    expect(Object.getOwnPropertyDescriptor(masked, 'text')).toEqual({
      value: '#',
      writable: true,
      enumerable: true,
      configurable: true,
    });
    expect(delete (masked as Partial<typeof masked>).other).toBe(true);
    expect(masked).toEqual({ kind: 'X', text: '#' });
  });
});

describe('maskStrings on shared and cyclic values', () => {
  it('masks a part shared by two fields in both, and returns a cyclic value without secrets as it is', () => {
    const shared = { text: 'S' };
    const masked = maskStrings({ a: shared, b: [shared] }, (text) => text.replaceAll('S', '#'));
    expect(masked).toEqual({ a: { text: '#' }, b: [{ text: '#' }] });

    const cyclic: Record<string, unknown> = { text: 'plain' };
    cyclic.self = cyclic;
    expect(maskStrings(cyclic, (text) => text.replaceAll('S', '#'))).toBe(cyclic);
  });

  it('looks at each string once, however often its object is referenced or however deep a cycle sits', () => {
    const inner: Record<string, unknown> = { text: 'plain' };
    inner.self = inner;
    const value = { kind: 'X', parts: [inner, inner, { again: inner }] };
    const seen: string[] = [];
    const result = maskStrings(value, (text) => {
      // A walk that re-entered the cycle would never end: fail at once instead.
      if (seen.length > 10) throw new Error('the walk does not end');
      seen.push(text);
      return text;
    });
    expect(result).toBe(value);
    expect(seen).toEqual(['plain']);
  });
});

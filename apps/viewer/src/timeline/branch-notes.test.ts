import { describe, expect, it } from 'vitest';
import { branchNotes } from './branch-notes.js';

const event = (id: string, parent_id?: string) => ({
  id,
  kind: 'MessageEvent',
  ...(parent_id === undefined ? {} : { parent_id }),
});

describe('branchNotes', () => {
  it('names nothing on a linear chain', () => {
    expect(branchNotes([event('a'), event('b', 'a'), event('c', 'b'), event('d')]).size).toBe(0);
  });

  it('marks siblings that share a parent and explicit roots', () => {
    const notes = branchNotes([event('a'), event('b', 'a'), event('c', 'a'), event('r', '__root__')]);
    expect(notes.get('b')).toBe('branch 1 of 2 from a');
    expect(notes.get('c')).toBe('branch 2 of 2 from a');
    expect(notes.get('r')).toBe('new root');
    expect(notes.has('a')).toBe(false);
  });
});

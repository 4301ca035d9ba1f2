import { describe, expect, it } from 'vitest';
import { GitCommandError } from './git-command-error.js';
import { parseNameStatus } from './name-status.js';

describe('parseNameStatus', () => {
  it('maps each status, a rename to DELETED + ADDED and a copy to ADDED, keeping odd paths whole', () => {
    const output = [
      'A',
      'new file.txt',
      'D',
      'gone',
      'M',
      'tab\there',
      'T',
      'link',
      'U',
      'conflict',
      'R087',
      'old',
      'new',
      'C100',
      'source',
      'copy',
      '',
    ].join('\0');
    expect(parseNameStatus(output)).toEqual([
      { status: 'ADDED', path: 'new file.txt' },
      { status: 'DELETED', path: 'gone' },
      { status: 'UPDATED', path: 'tab\there' },
      { status: 'UPDATED', path: 'link' },
      { status: 'UPDATED', path: 'conflict' },
      { status: 'DELETED', path: 'old' },
      { status: 'ADDED', path: 'new' },
      { status: 'ADDED', path: 'copy' },
    ]);
    expect(parseNameStatus('')).toEqual([]);
  });

  it('refuses an unknown status or a missing path with a GitCommandError naming it', () => {
    expect(() => parseNameStatus('X\0file\0')).toThrow(/unexpected git status 'X'/);
    expect(() => parseNameStatus('M')).toThrow(/M without a path/);
    expect(() => parseNameStatus('R100\0only-one\0')).toThrow(/R100 without two paths/);
    expect(() => parseNameStatus('XY\0file\0')).toThrow(GitCommandError);
  });
});

import { describe, expect, it } from 'vitest';
import { snapshotConfiguration } from './git-directory-snapshot.js';

/** `git config --null --list --show-scope` output for the given entries (`undefined`: a key without a value). */
function listing(entries: Array<[scope: string, key: string, value: string | undefined]>): string {
  return entries.map(([scope, key, value]) => `${scope}\0${value === undefined ? key : `${key}\n${value}`}\0`).join('');
}

describe('snapshotConfiguration', () => {
  it("keeps the repository's settings of what git reports, and none that names a program or a path", () => {
    const text = snapshotConfiguration(
      listing([
        ['local', 'core.repositoryformatversion', '1'],
        ['local', 'extensions.objectformat', 'sha256'],
        ['local', 'core.worktree', '/elsewhere'],
        ['local', 'include.path', 'extra.cfg'],
        ['local', 'filter.lfs.clean', 'git-lfs clean -- %f'],
        ['local', 'core.fsmonitor', '/evil'],
        ['local', 'core.excludesfile', '/etc/excludes'],
        ['local', 'extensions.worktreeconfig', 'true'],
        ['local', 'core.ignorecase', undefined],
        ['worktree', 'core.autocrlf', 'input'],
        ['command', 'core.filemode', 'false'],
        ['local', 'core.abbrev', '7'],
        ['local', 'core.abbrev', '12'],
      ]),
      { bare: false },
    );
    expect(text).toBe(
      [
        '[core]',
        '\trepositoryformatversion = "1"',
        '\tignorecase = "true"',
        '\tautocrlf = "input"',
        '\tabbrev = "12"',
        '\tbare = "false"',
        '[extensions]',
        '\tobjectformat = "sha256"',
        '',
      ].join('\n'),
    );
  });

  it('quotes a value so that none of its characters ends the line or the value, and marks a bare repository', () => {
    const text = snapshotConfiguration(listing([['local', 'core.eol', 'a"b\\c\nd\te #;']]), { bare: true });
    expect(text).toBe('[core]\n\teol = "a\\"b\\\\c\\nd\\te #;"\n\tbare = "true"\n');
  });
});

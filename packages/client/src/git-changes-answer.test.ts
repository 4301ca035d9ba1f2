import { describe, expect, it } from 'vitest';
import { gitChangesAnswer, parseUnreadableRepositories } from './git-changes-answer.js';

describe('parseUnreadableRepositories', () => {
  it('decodes each comma-separated name, and reads an absent or empty header as none', () => {
    expect(parseUnreadableRepositories('damaged,damaged%2C%20too,caf%C3%A9')).toEqual([
      'damaged',
      'damaged, too',
      'café',
    ]);
    expect(parseUnreadableRepositories(null)).toEqual([]);
    expect(parseUnreadableRepositories('')).toEqual([]);
  });

  it('keeps a name whose percent-encoding is broken as it was sent', () => {
    expect(parseUnreadableRepositories('fine,%E0%A4%A,100%')).toEqual(['fine', '%E0%A4%A', '100%']);
  });
});

describe('gitChangesAnswer', () => {
  it('adds the names to the list without making them an enumerable key', () => {
    const answer = gitChangesAnswer([{ status: 'ADDED', path: 'a.txt' }], ['nested']);
    expect(answer.unreadableRepositories).toEqual(['nested']);
    expect(Object.keys(answer)).toEqual(['0']);
    expect(JSON.stringify(answer)).toBe('[{"status":"ADDED","path":"a.txt"}]');
  });
});

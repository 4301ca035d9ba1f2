import { describe, expect, it } from 'vitest';
import { computeChainHash } from './chain-link.js';
import { headRecordPath } from './chain-records.js';
import { checkHeads, strippedChainStart } from './head-checks.js';

// What `verifyChain` reports from the heads a log must reach (a head record, the head the open log knows), and
// where a chain whose first links were stripped started.

const describePath = (path: string): string => `/root/${path}`;
const hash = (letter: string): string => letter.repeat(64);

describe('checkHeads', () => {
  it('names every event a head record has and the log lost', () => {
    const recorded = { length: 5, id: 'e4', hash: hash('a') };
    const { recordedLength, problem } = checkHeads(
      recorded,
      undefined,
      [hash('0'), hash('1'), hash('2')],
      3,
      describePath,
      'ev',
    );
    expect(recordedLength).toBe(5);
    expect(problem).toMatchObject({ kind: 'removed', index: 3, id: undefined });
    expect(problem?.message).toBe(
      `events 3…4 are gone: the log had 5 events (${describePath(headRecordPath('ev', 5))}) and was cut short`,
    );
  });

  it('holds the log to the head the open log knows, even one event long', () => {
    const { recordedLength, problem } = checkHeads(
      undefined,
      { length: 1, hash: hash('a') },
      [],
      0,
      describePath,
      'ev',
    );
    expect(recordedLength).toBeNull();
    expect(problem).toMatchObject({ kind: 'removed', index: 0 });
    expect(problem?.message).toBe('event 0 is gone: the log had 1 event (the open log) and was cut short');
    expect(checkHeads(undefined, { length: 0, hash: undefined }, [], 0, describePath, 'ev').problem).toBeUndefined();
  });

  it('names the head event whose link differs from the head, and skips a head without a hash', () => {
    const hashes = [hash('0'), hash('1'), hash('2')];
    const recorded = { length: 2, id: 'e1', hash: hash('f') };
    const { problem } = checkHeads(recorded, undefined, hashes, 3, describePath, 'ev');
    expect(problem).toMatchObject({ kind: 'altered', index: 1, id: 'e1' });
    expect(problem?.message).toMatch(/^event 1 \(e1\) was rewritten with a new chain link/);
    expect(
      checkHeads({ length: 2, id: 'e1', hash: hash('1') }, undefined, hashes, 3, describePath, 'ev').problem,
    ).toBeUndefined();
    expect(
      checkHeads(undefined, { length: 2, hash: undefined }, hashes, 3, describePath, 'ev').problem,
    ).toBeUndefined();
  });
});

describe('strippedChainStart', () => {
  it('finds where a chain began when its first links were stripped, past events of an earlier chain', () => {
    const events = ['a', 'b', 'c', 'd', 'e', 'f'].map((text) => Buffer.from(`{"text":"${text}"}`));
    // A chain that started at 2 (events 0 and 1 are not in it): the link at 5 chains to the hash at 4.
    let prev: string | null = null;
    for (let index = 2; index < 5; index++) prev = computeChainHash(index, prev, events[index]!);
    expect(strippedChainStart(5, prev!, (index) => events[index])).toBe(2);
    // No start reproduces a hash of nothing: the one link known to be missing is named.
    expect(strippedChainStart(5, hash('9'), (index) => events[index])).toBe(4);
  });
});

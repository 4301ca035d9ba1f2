import { describe, expect, it } from 'vitest';
import {
  costUnder,
  durationUnder,
  type EvalToolCall,
  filesWithin,
  finalAnswerMatches,
  noErrors,
  trajectory,
} from '../src/index.js';
import { runWith } from './support/eval-fakes.js';

// Boundaries and details of each scorer, on runs built in memory.

const call = (tool: string, args: Record<string, unknown> = {}): EvalToolCall => ({ tool, arguments: args });

describe('yes/no scorers', () => {
  it('no-errors passes with score 1, and fails counting the errors and naming the first', async () => {
    expect(await noErrors().score(runWith(), {})).toEqual({
      scorer: 'no-errors',
      passed: true,
      score: 1,
      detail: 'no errors',
    });
    const failed = await noErrors().score(runWith({ errors: ['tool broke', 'model refused'] }), {});
    expect(failed).toEqual({
      scorer: 'no-errors',
      passed: false,
      score: 0,
      detail: '2 error(s), first: tool broke',
    });
  });

  it('cost-under and duration-under pass only strictly below their limit', async () => {
    expect(await costUnder(0.5).score(runWith({ costUsd: 0.5 }), {})).toMatchObject({
      passed: false,
      detail: 'cost $0.500000 >= $0.5',
    });
    expect(await costUnder(0.5).score(runWith({ costUsd: 0.4999 }), {})).toMatchObject({
      passed: true,
      detail: 'cost $0.499900 < $0.5',
    });
    expect(await durationUnder(2).score(runWith({ durationSeconds: 2 }), {})).toMatchObject({
      passed: false,
      detail: 'took 2.000s >= 2s',
    });
    expect(await durationUnder(2).score(runWith({ durationSeconds: 1.5 }), {})).toMatchObject({
      passed: true,
      detail: 'took 1.500s < 2s',
    });
  });
});

describe('files-within', () => {
  it('allows the workspace with ".", but nothing above it or absolute', async () => {
    const everywhere = filesWithin(['.']);
    expect((await everywhere.score(runWith({ filesWritten: ['a.txt', 'deep/b.txt'] }), {})).passed).toBe(true);
    const above = await everywhere.score(runWith({ filesWritten: ['ok.txt', '../escape.txt'] }), {});
    expect(above).toMatchObject({ passed: false, detail: 'written outside .: ../escape.txt' });
    expect((await everywhere.score(runWith({ filesWritten: ['/etc/passwd'] }), {})).passed).toBe(false);
    expect((await everywhere.score(runWith({ filesWritten: ['sub/../../up.txt'] }), {})).passed).toBe(false);
  });

  it('takes a file whose name starts with two dots for a file in the workspace', async () => {
    const score = await filesWithin(['.']).score(runWith({ filesWritten: ['..notes', '..cache/x.txt'] }), {});
    expect(score.passed).toBe(true);
  });

  it('allows a directory and what is under it, not a sibling that shares its prefix', async () => {
    const scorer = filesWithin(['src/']);
    const inside = await scorer.score(runWith({ filesWritten: ['src', 'src/a.ts', 'src/deep/b.ts'] }), {});
    expect(inside).toMatchObject({ passed: true, detail: '3 file(s) written, all within src/' });
    const sibling = await scorer.score(runWith({ filesWritten: ['src/a.ts', 'srcs/b.ts', 'lib/src/c.ts'] }), {});
    expect(sibling).toMatchObject({ passed: false, detail: 'written outside src/: srcs/b.ts, lib/src/c.ts' });
    expect(await filesWithin(['x']).score(runWith(), {})).toMatchObject({
      passed: true,
      detail: '0 file(s) written, all within x',
    });
  });
});

describe('final-answer', () => {
  it('shows the answer whole up to 80 characters, cut to 77 and "..." beyond', async () => {
    const exact = 'a'.repeat(80);
    expect((await finalAnswerMatches('^b').score(runWith({ finalAnswer: exact }), {})).detail).toBe(
      `final answer "${exact}" does not match /^b/`,
    );
    const long = `${'b'.repeat(77)}XYZW`;
    expect((await finalAnswerMatches('W$', 'i').score(runWith({ finalAnswer: long }), {})).detail).toBe(
      `final answer "${'b'.repeat(77)}..." matches /W$/i`,
    );
  });

  it('gives the same verdict every time with the g flag', async () => {
    const scorer = finalAnswerMatches('done', 'g');
    const run = runWith({ finalAnswer: 'done' });
    expect([(await scorer.score(run, {})).passed, (await scorer.score(run, {})).passed]).toEqual([true, true]);
  });

  it('gives the same verdict every time with the y flag (each run of a case is scored by one scorer)', async () => {
    const scorer = finalAnswerMatches('done', 'y');
    const run = runWith({ finalAnswer: 'done' });
    const verdicts = [];
    for (let time = 0; time < 3; time++) verdicts.push((await scorer.score(run, {})).passed);
    expect(verdicts).toEqual([true, true, true]);
    expect((await scorer.score(runWith({ finalAnswer: 'not done' }), {})).passed).toBe(false);
  });
});

describe('trajectory', () => {
  it('scores the F1 of precision and recall, and names the calls made', async () => {
    const scorer = trajectory({ match: 'any-order', tools: ['read', 'write'], minRecall: 0.5 });
    const half = await scorer.score(runWith({ toolCalls: [call('read'), call('think')] }), {});
    expect(half.score).toBeCloseTo(0.5);
    expect(half.passed).toBe(true);
    expect(half.detail).toBe(
      'any-order: precision 0.50 (min 0), recall 0.50 (min 0.5); expected read → write, made read → think',
    );
    const none = await scorer.score(runWith(), {});
    expect(none).toMatchObject({ passed: false, score: 0 });
    expect(none.detail).toContain('precision 0.00 (min 0), recall 0.00');
    expect(none.detail).toContain('made (no tool calls)');
  });

  it('passes one exact call, and a recall of exactly the minimum', async () => {
    const one = trajectory({ match: 'exact', tools: ['finish'] });
    expect(await one.score(runWith({ toolCalls: [call('finish')] }), {})).toMatchObject({ passed: true, score: 1 });
    const made = runWith({ toolCalls: [call('a'), call('b'), call('c')] });
    const third = trajectory({ match: 'in-order', tools: ['c', 'x', 'y'], minRecall: 1 / 3, minPrecision: 1 / 3 });
    expect((await third.score(made, {})).passed).toBe(true);
    // An explicit minimum of 0 is kept, not replaced by the default.
    const lenient = trajectory({ match: 'in-order', tools: ['x'], minRecall: 0 });
    expect((await lenient.score(made, {})).passed).toBe(true);
  });

  it('lets exact allow calls between when its precision minimum is set to 0, and not by default', async () => {
    const made = runWith({ toolCalls: [call('read'), call('think'), call('write')] });
    const strict = await trajectory({ match: 'exact', tools: ['read', 'write'] }).score(made, {});
    expect(strict.passed).toBe(false);
    expect(strict.detail).toContain('precision 0.67 (min 1)');
    const loose = await trajectory({ match: 'exact', tools: ['read', 'write'], minPrecision: 0 }).score(made, {});
    expect(loose.passed).toBe(true);
    expect(loose.detail).toContain('precision 0.67 (min 0)');
  });

  it('counts the longest in-order match, calls between allowed', async () => {
    const made = runWith({ toolCalls: [call('a'), call('x'), call('b'), call('a'), call('c')] });
    const scorer = trajectory({ match: 'in-order', tools: ['a', 'b', 'c', 'd'], minRecall: 0 });
    expect((await scorer.score(made, {})).detail).toContain('precision 0.60 (min 0), recall 0.75');
    const reversed = trajectory({ match: 'in-order', tools: ['c', 'b', 'a'], minRecall: 0 });
    expect((await reversed.score(made, {})).detail).toContain('recall 0.67');
    // One call made counts once, however many times it is expected.
    const again = trajectory({ match: 'in-order', tools: ['a', 'a'], minRecall: 0 });
    expect((await again.score(runWith({ toolCalls: [call('a')] }), {})).detail).toContain('recall 0.50');
    const once = trajectory({ match: 'in-order', tools: ['a'] });
    expect((await once.score(runWith({ toolCalls: [call('a'), call('a')] }), {})).detail).toContain('precision 0.50');
    const first = trajectory({ match: 'in-order', tools: ['a'] });
    expect((await first.score(runWith({ toolCalls: [call('a'), call('z')] }), {})).passed).toBe(true);
    const last = trajectory({ match: 'in-order', tools: ['z'] });
    expect((await last.score(runWith({ toolCalls: [call('a'), call('z')] }), {})).passed).toBe(true);
  });

  it('matches arguments by value, any-order counting each call once', async () => {
    const made = runWith({
      toolCalls: [call('edit', { path: 'a.ts', options: { force: true } }), call('edit', { path: 'b.ts' })],
    });
    const scorer = trajectory({
      match: 'any-order',
      tools: ['edit', { tool: 'edit', arguments: { path: 'a.ts', options: { force: true } } }],
    });
    expect(await scorer.score(made, {})).toMatchObject({ passed: true, score: 1 });
    const twice = trajectory({
      match: 'any-order',
      tools: [{ tool: 'edit', arguments: { path: 'b.ts' } }, 'edit', 'edit'],
    });
    expect((await twice.score(made, {})).detail).toContain('recall 0.67');
    const otherTool = trajectory({ match: 'any-order', tools: [{ tool: 'view', arguments: { path: 'a.ts' } }] });
    expect((await otherTool.score(made, {})).passed).toBe(false);
  });

  it('finds every expected call in any order when one call could satisfy two of them', async () => {
    const made = runWith({ toolCalls: [call('edit', { path: 'a.ts', mode: 'w' }), call('edit', { path: 'a.ts' })] });
    const scorer = trajectory({
      match: 'any-order',
      tools: [
        { tool: 'edit', arguments: { path: 'a.ts' } },
        { tool: 'edit', arguments: { mode: 'w' } },
      ],
    });
    expect(await scorer.score(made, {})).toMatchObject({ passed: true, score: 1 });
  });
});

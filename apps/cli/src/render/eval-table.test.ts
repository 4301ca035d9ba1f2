import type { EvalCaseResult, EvalReport } from '@x/agent';
import { describe, expect, it } from 'vitest';
import { createColors } from './colors.js';
import { casePassed, evalTable } from './eval-table.js';

function entry(id: string, runs: boolean[]): EvalCaseResult {
  const passed = runs.filter(Boolean).length;
  return {
    id,
    mode: 'live',
    runs: runs.map((ok, index) => ({ run: index + 1, passed: ok, scores: [], costUsd: 0, durationSeconds: 0 })),
    passed,
    passRate: runs.length === 0 ? 0 : passed / runs.length,
    k: 1,
    passAtK: 0,
    passHatK: 0,
    judgeCostUsd: 0,
  };
}

describe('casePassed, which decides the exit code of `x eval` without a baseline', () => {
  it('passes a case only when it ran and every run passed', () => {
    expect(casePassed(entry('all', [true, true]))).toBe(true);
    expect(casePassed(entry('one-failed', [true, false]))).toBe(false);
    expect(casePassed(entry('never-ran', []))).toBe(false);
  });

  it('does not take the `passed` count on trust: the runs decide', () => {
    expect(casePassed({ ...entry('claims', [false]), passed: 1 })).toBe(false);
  });
});

describe('evalTable', () => {
  it('lists a case that never ran among the failures, saying so', () => {
    const report: EvalReport = {
      suite: 's',
      createdAt: '2026-01-01T00:00:00.000Z',
      cases: [entry('fine', [true]), entry('never-ran', [])],
    };
    const lines = evalTable(report, createColors(false));
    expect(lines).toContain('never-ran: no run was made');
    expect(lines.some((line) => line.startsWith('fine:'))).toBe(false);
  });
});

describe('evalTable, the lines printed', () => {
  const base = { suite: 's', createdAt: '2026-01-01T00:00:00.000Z' };

  it('aligns the columns, compares with the baseline, and says why a run that could not be made failed', () => {
    const broken: EvalCaseResult = {
      ...entry('broken-case', [false]),
      runs: [{ run: 1, passed: false, scores: [], costUsd: 0, durationSeconds: 0, error: 'no model for live runs' }],
    };
    const report: EvalReport = { ...base, cases: [entry('ok', [true, true]), broken] };
    const baseline: EvalReport = { ...base, cases: [entry('ok', [true, false])] };
    expect(evalTable(report, createColors(false), { baseline })).toEqual([
      'case         mode  passed  rate  pass@k  pass^k  baseline',
      'ok           live  2/2     100%  0% k=1  0%      50%',
      'broken-case  live  0/1     0%    0% k=1  0%      new',
      '',
      'broken-case: run 1: no model for live runs',
    ]);
  });

  it('prints no blank line and no reasons when every case passed', () => {
    const report: EvalReport = { ...base, cases: [entry('a', [true]), entry('b', [true])] };
    expect(evalTable(report, createColors(false))).toEqual([
      'case  mode  passed  rate  pass@k  pass^k',
      'a     live  1/1     100%  0% k=1  0%',
      'b     live  1/1     100%  0% k=1  0%',
    ]);
  });

  it('names the scorer that failed a run, and where a replay diverged', () => {
    const scored: EvalCaseResult = {
      ...entry('scored', [false]),
      runs: [
        {
          run: 1,
          passed: false,
          scores: [
            { scorer: 'no-errors', passed: true, score: 1, detail: 'none' },
            { scorer: 'final-answer', passed: false, score: 0, detail: 'said apple' },
          ],
          costUsd: 0,
          durationSeconds: 0,
        },
      ],
    };
    const diverged: EvalCaseResult = {
      ...entry('diverged', [false]),
      mode: 'replay',
      runs: [
        {
          run: 1,
          passed: false,
          scores: [],
          costUsd: 0,
          durationSeconds: 0,
          divergence: { requestIndex: 2, path: 'tools[0]', diff: 'd' },
        },
      ],
    };
    const lines = evalTable({ ...base, cases: [scored, diverged] }, createColors(false));
    expect(lines.slice(-2)).toEqual([
      'scored: run 1: final-answer: said apple',
      'diverged: run 1: replay diverged at request 2 (tools[0])',
    ]);
  });
});

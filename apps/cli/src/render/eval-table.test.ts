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

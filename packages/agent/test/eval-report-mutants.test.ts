import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compareToBaseline,
  type EvalCaseResult,
  type EvalReport,
  InvalidEvalBaselineError,
  loadBaseline,
  passAtK,
  passHatK,
} from '../src/index.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-eval-report-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('pass@k and pass^k at their edges', () => {
  it('credit a single run by its outcome', () => {
    expect([passAtK(1, 1, 1), passHatK(1, 1, 1)]).toEqual([1, 1]);
    expect([passAtK(1, 0, 1), passHatK(1, 0, 1)]).toEqual([0, 0]);
  });

  it('credit nothing when no run was made', () => {
    expect([passAtK(0, 0, 1), passHatK(0, 0, 1)]).toEqual([0, 0]);
  });

  it('follow the binomial formulas for draws smaller than the runs', () => {
    // 3 of 5 passed, 2 drawn: C(2,2)/C(5,2) = 1/10 draws fail, C(3,2)/C(5,2) = 3/10 all pass.
    expect(passAtK(5, 3, 2)).toBeCloseTo(0.9, 12);
    expect(passHatK(5, 3, 2)).toBeCloseTo(0.3, 12);
    expect(passAtK(10, 1, 4)).toBeCloseTo(0.4, 12);
    expect(passHatK(10, 9, 4)).toBeCloseTo(0.6, 12);
  });

  it('cap k at the runs made, and draw nothing at k = 0 (no pass, nothing failed)', () => {
    expect(passAtK(2, 1, 5)).toBe(1);
    expect(passHatK(2, 1, 5)).toBe(0);
    expect(passHatK(2, 2, 5)).toBe(1);
    expect([passAtK(3, 1, 0), passHatK(3, 1, 0)]).toEqual([0, 1]);
  });
});

function caseResult(id: string, passRate: number, overrides: Partial<EvalCaseResult> = {}): EvalCaseResult {
  return {
    id,
    mode: 'live',
    runs: [{ run: 1, passed: passRate === 1, scores: [], costUsd: 0, durationSeconds: 0 }],
    passed: passRate === 1 ? 1 : 0,
    passRate,
    k: 1,
    passAtK: passRate,
    passHatK: passRate,
    judgeCostUsd: 0,
    ...overrides,
  };
}

const report = (cases: EvalCaseResult[]): EvalReport => ({ suite: 's', createdAt: '2026-01-01T00:00:00.000Z', cases });

describe('compareToBaseline', () => {
  it('sorts each case into exactly one list', () => {
    const now = report([caseResult('same', 0.5), caseResult('new', 1), caseResult('worse', 0.2), caseResult('up', 1)]);
    const before = report([
      caseResult('same', 0.5),
      caseResult('worse', 0.4),
      caseResult('up', 0.9),
      caseResult('gone', 1),
    ]);
    expect(compareToBaseline(now, before)).toEqual({
      regressions: [{ id: 'worse', baselinePassRate: 0.4, passRate: 0.2 }],
      improvements: [{ id: 'up', baselinePassRate: 0.9, passRate: 1 }],
      unchanged: [{ id: 'same', baselinePassRate: 0.5, passRate: 0.5 }],
      added: ['new'],
      removed: ['gone'],
    });
  });

  it('forgives a fall within the tolerance, not beyond it, and forgives no fall by default', () => {
    const before = report([caseResult('a', 1), caseResult('b', 1)]);
    const now = report([caseResult('a', 0.75), caseResult('b', 0.25)]);
    const tolerant = compareToBaseline(now, before, { tolerance: 0.5 });
    expect(tolerant.regressions.map((row) => row.id)).toEqual(['b']);
    expect(tolerant.unchanged.map((row) => row.id)).toEqual(['a']);
    expect(compareToBaseline(now, before).regressions.map((row) => row.id)).toEqual(['a', 'b']);
    expect(compareToBaseline(now, before, { tolerance: 0 }).regressions).toHaveLength(2);
  });
});

describe('loadBaseline', () => {
  async function saved(name: string, content: unknown): Promise<string> {
    const path = join(root, name);
    await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  }

  async function refusal(path: string): Promise<InvalidEvalBaselineError> {
    const error = await loadBaseline(path).catch((caught: unknown) => caught);
    expect(InvalidEvalBaselineError.isInstance(error)).toBe(true);
    return error as InvalidEvalBaselineError;
  }

  it('reads back a report at the bounds of every field', async () => {
    const bounds = report([
      caseResult('none', 0, {
        mode: 'replay',
        runs: [
          {
            run: 1,
            passed: false,
            scores: [{ scorer: 'llm-judge', passed: false, score: 0, detail: 'd', costUsd: 0 }],
            costUsd: 0,
            durationSeconds: 0,
            divergence: { requestIndex: 0, path: 'messages[0]', diff: '-a\n+b' },
          },
        ],
      }),
      caseResult('some', 0.5, {
        runs: [
          {
            run: 1,
            passed: true,
            scores: [],
            costUsd: 0.25,
            durationSeconds: 0.5,
            conversationId: 'c',
            location: '/l',
          },
          {
            run: 2,
            passed: false,
            scores: [{ scorer: 'trajectory', passed: false, score: 0.5, detail: 'd' }],
            costUsd: 0.5,
            durationSeconds: 2,
            error: 'x',
          },
        ],
        passed: 1,
        k: 2,
        passAtK: 1,
        passHatK: 0,
        judgeCostUsd: 0.5,
      }),
    ]);
    const withJudge = { ...bounds, judge: { model: 'm', calls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0 } };
    expect(await loadBaseline(await saved('bounds.json', withJudge))).toEqual(withJudge);
  });

  it('refuses a report with a run 0, a k of 0 or a pass rate above 1, naming the field', async () => {
    const bad = (overrides: Partial<EvalCaseResult>) => report([caseResult('a', 1, overrides)]);
    const zeroRun = await refusal(
      await saved('run0.json', bad({ runs: [{ run: 0, passed: true, scores: [], costUsd: 0, durationSeconds: 0 }] })),
    );
    expect(zeroRun.message).toContain('not an eval report: cases.0.runs.0.run:');
    expect((await refusal(await saved('k0.json', bad({ k: 0 })))).message).toContain('cases.0.k:');
    expect((await refusal(await saved('rate.json', bad({ passRate: 1.5 })))).message).toContain('cases.0.passRate:');
  });

  it('says what is wrong with a file that is no report at all', async () => {
    const list = await refusal(await saved('list.json', '[]'));
    expect(list.message).toMatch(/list\.json: not an eval report: \(root\): \S/);
    expect((await refusal(await saved('text.json', 'not json'))).message).toContain('cannot be read as JSON');
    expect((await refusal(join(root, 'missing.json'))).message).toContain('cannot be read as JSON');
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compareToBaseline,
  createOfflineLLM,
  type EvalReport,
  type EvalSuite,
  InvalidEvalBaselineError,
  InvalidEvalOptionError,
  InvalidEvalSuiteError,
  loadBaseline,
  parseEvalSuite,
  passAtK,
  passHatK,
  runEvalSuite,
} from '../src/index.js';
import { evalAgent } from './support/eval-recordings.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-eval-options-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const suite = parseEvalSuite({ cases: [{ id: 'say', task: 'Say banana', scorers: ['no-errors'] }] });
let modelCalls = 0;
const options = {
  llm: () => {
    modelCalls += 1;
    return createOfflineLLM({ script: [{ toolCalls: [{ name: 'finish', arguments: { message: 'banana' } }] }] });
  },
  agent: evalAgent,
};

async function refusal(run: () => Promise<unknown>): Promise<InvalidEvalOptionError> {
  const error = await run().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(InvalidEvalOptionError.isInstance(error), String(error)).toBe(true);
  return error as InvalidEvalOptionError;
}

describe('runEvalSuite refuses a count that would not run each case a whole number of times', () => {
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 1001])('runs: %s, before any run', async (runs) => {
    const before = modelCalls;
    const error = await refusal(() => runEvalSuite(suite, { ...options, runs }));
    expect(error.option).toBe('runs');
    expect(error.code).toBe('invalid_eval_option');
    expect(error.message).toContain(`option runs: expected a whole number from 1 to 1000, got ${runs}`);
    expect(modelCalls).toBe(before);
  });

  it.each([0, -2, 0.5, Number.NaN])('k: %s', async (k) => {
    expect((await refusal(() => runEvalSuite(suite, { ...options, k }))).option).toBe('k');
  });

  it('accepts the edges: one run, and a thousand', async () => {
    const report = await runEvalSuite(suite, { ...options, runs: 1, k: 1000 });
    expect(report.cases[0]).toMatchObject({ passed: 1, passRate: 1, k: 1 });
    expect(report.cases[0]?.runs).toHaveLength(1);
  });

  it('checks a suite built in code as a file would be: a case or a suite asking for no runs is refused', async () => {
    const [only] = suite.cases;
    const zeroCase: EvalSuite = { cases: [{ ...only!, runs: 0 }] };
    const caseError = await runEvalSuite(zeroCase, options).catch((caught: unknown) => caught);
    expect(InvalidEvalSuiteError.isInstance(caseError)).toBe(true);
    expect(caseError).toMatchObject({ caseId: 'say', field: 'runs' });

    const zeroSuite: EvalSuite = { ...suite, runs: Number.NaN };
    const suiteError = await runEvalSuite(zeroSuite, options).catch((caught: unknown) => caught);
    expect(InvalidEvalSuiteError.isInstance(suiteError)).toBe(true);
    expect(suiteError).toMatchObject({ field: 'runs' });
  });

  it('keeps the directory of a suite loaded from a file (relative conversations start there)', async () => {
    const located = { ...parseEvalSuite({ cases: [{ id: 'old', conversation: './gone', scorers: ['no-errors'] }] }) };
    const error = await runEvalSuite({ ...located, directory: root }, options).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain(join(root, 'gone'));
  });
});

function report(
  cases: readonly { id: string; runs: readonly boolean[]; passRate?: number; passed?: number }[],
): EvalReport {
  return {
    suite: 's',
    createdAt: '2026-01-01T00:00:00.000Z',
    cases: cases.map((entry) => {
      const passed = entry.runs.filter(Boolean).length;
      return {
        id: entry.id,
        mode: 'live' as const,
        runs: entry.runs.map((ok, index) => ({
          run: index + 1,
          passed: ok,
          scores: [],
          costUsd: 0,
          durationSeconds: 0,
        })),
        passed: entry.passed ?? passed,
        passRate: entry.passRate ?? (entry.runs.length === 0 ? 0 : passed / entry.runs.length),
        k: 1,
        passAtK: 0,
        passHatK: 0,
        judgeCostUsd: 0,
      };
    }),
  };
}

describe('a case that never ran does not count as passed', () => {
  it('against a baseline: no runs now is a regression even if the report claims a full pass rate', () => {
    const baseline = report([{ id: 'a', runs: [true] }]);
    const now = report([{ id: 'a', runs: [], passRate: 1 }]);
    expect(compareToBaseline(now, baseline).regressions).toEqual([{ id: 'a', baselinePassRate: 1, passRate: 0 }]);
  });

  it('in a baseline file: a case without runs, or with counts its runs do not bear out, is refused', async () => {
    for (const [name, cases, field] of [
      ['empty.json', [{ id: 'a', runs: [], passRate: 1 }], 'cases.0.runs'],
      ['claims.json', [{ id: 'a', runs: [false, false], passed: 2, passRate: 1 }], 'cases.0.passed'],
      ['rate.json', [{ id: 'a', runs: [true, false], passRate: 1 }], 'cases.0.passRate'],
    ] as const) {
      const path = join(root, name);
      await writeFile(path, JSON.stringify(report([...cases])));
      const error = await loadBaseline(path).catch((caught: unknown) => caught);
      expect(InvalidEvalBaselineError.isInstance(error), name).toBe(true);
      expect((error as Error).message).toContain(`${field}:`);
    }
  });

  it('a baseline whose counts agree with its runs loads', async () => {
    const path = join(root, 'good.json');
    await writeFile(path, JSON.stringify(report([{ id: 'a', runs: [true, false, true] }])));
    expect((await loadBaseline(path)).cases[0]?.passRate).toBeCloseTo(2 / 3, 12);
  });
});

describe('compareToBaseline refuses a tolerance that is not a pass rate', () => {
  const baseline = report([{ id: 'a', runs: [true] }]);
  const now = report([{ id: 'a', runs: [false] }]);
  it.each([Number.NaN, -0.1, 1.5, Number.POSITIVE_INFINITY])('tolerance: %s', (tolerance) => {
    let caught: unknown;
    try {
      compareToBaseline(now, baseline, { tolerance });
    } catch (error) {
      caught = error;
    }
    expect(InvalidEvalOptionError.isInstance(caught)).toBe(true);
    expect((caught as InvalidEvalOptionError).option).toBe('tolerance');
  });

  it('takes the edges, 0 and 1', () => {
    expect(compareToBaseline(now, baseline, { tolerance: 0 }).regressions).toHaveLength(1);
    expect(compareToBaseline(now, baseline, { tolerance: 1 }).unchanged).toHaveLength(1);
  });
});

describe('passAtK and passHatK refuse counts that are not counts', () => {
  it.each([
    ['n', -1, 0, 1],
    ['n', 2.5, 1, 1],
    ['c', 3, -1, 1],
    ['c', 3, 1.5, 1],
    ['c', 2, 3, 1],
    ['k', 3, 1, -1],
    ['k', 3, 1, Number.NaN],
  ] as const)('%s in (%s, %s, %s)', (option, n, c, k) => {
    for (const estimate of [passAtK, passHatK]) {
      let caught: unknown;
      try {
        estimate(n, c, k);
      } catch (error) {
        caught = error;
      }
      expect(InvalidEvalOptionError.isInstance(caught), `${estimate.name}: ${String(caught)}`).toBe(true);
      expect((caught as InvalidEvalOptionError).option).toBe(option);
    }
  });

  it('take the edges: no runs, no draws, every run passed', () => {
    expect([passAtK(0, 0, 0), passHatK(0, 0, 0)]).toEqual([0, 0]);
    expect([passAtK(0, 0, 3), passHatK(0, 0, 3)]).toEqual([0, 0]);
    expect([passAtK(4, 4, 2), passHatK(4, 4, 2)]).toEqual([1, 1]);
  });
});

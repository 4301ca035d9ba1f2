import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  costUnder,
  durationUnder,
  evalSuiteSchema,
  InvalidEvalOptionError,
  InvalidEvalSuiteError,
  llmJudge,
  loadSuite,
  trajectory,
} from '../src/index.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-eval-ranges-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

let written = 0;
async function refusal(yaml: string): Promise<InvalidEvalSuiteError> {
  written += 1;
  const path = join(root, `suite-${written}.yaml`);
  await writeFile(path, yaml);
  const error = await loadSuite(path).catch((caught: unknown) => caught);
  expect(InvalidEvalSuiteError.isInstance(error), String(error)).toBe(true);
  return error as InvalidEvalSuiteError;
}

const task = (extra: string, scorer = 'no-errors') =>
  `cases:\n  - id: c\n    task: t\n${extra}    scorers: [${scorer}]\n`;

describe('a suite file asks for whole runs and thresholds in range', () => {
  it.each(['0', '-1', '1.5', '.nan', '.inf', '1001'])('a case with runs: %s', async (runs) => {
    expect(await refusal(task(`    runs: ${runs}\n`))).toMatchObject({ caseId: 'c', field: 'runs' });
  });

  it.each(['0', '2.5', '.nan'])('a suite with runs: %s', async (runs) => {
    expect(await refusal(`runs: ${runs}\n${task('')}`)).toMatchObject({ caseId: undefined, field: 'runs' });
  });

  it.each([
    ['{ type: llm-judge, rubric: r, threshold: 1.5 }', 'scorers.0.threshold'],
    ['{ type: llm-judge, rubric: r, threshold: .nan }', 'scorers.0.threshold'],
    ['{ type: trajectory, match: exact, tools: [a], minRecall: -0.1 }', 'scorers.0.minRecall'],
    ['{ type: trajectory, match: exact, tools: [a], minPrecision: 2 }', 'scorers.0.minPrecision'],
    ['{ type: cost-under, usd: 0 }', 'scorers.0.usd'],
    ['{ type: cost-under, usd: .inf }', 'scorers.0.usd'],
    ['{ type: duration-under, seconds: -5 }', 'scorers.0.seconds'],
  ])('%s', async (scorer, field) => {
    expect(await refusal(task('', scorer))).toMatchObject({ caseId: 'c', field });
  });

  it('the suite schema itself wants a case', () => {
    expect(evalSuiteSchema.safeParse({ cases: [] }).success).toBe(false);
  });
});

describe('scorers made in code check their thresholds as a suite file does', () => {
  it.each([
    ['threshold', () => llmJudge('r', 1.5)],
    ['threshold', () => llmJudge('r', Number.NaN)],
    ['minRecall', () => trajectory({ match: 'in-order', tools: ['a'], minRecall: Number.NaN })],
    ['minPrecision', () => trajectory({ match: 'in-order', tools: ['a'], minPrecision: -1 })],
    ['usd', () => costUnder(Number.POSITIVE_INFINITY)],
    ['usd', () => costUnder(0)],
    ['seconds', () => durationUnder(Number.NaN)],
  ] as const)('%s', (option, make) => {
    let caught: unknown;
    try {
      make();
    } catch (error) {
      caught = error;
    }
    expect(InvalidEvalOptionError.isInstance(caught), String(caught)).toBe(true);
    expect((caught as InvalidEvalOptionError).option).toBe(option);
  });

  it('take the edges: thresholds 0 and 1, small limits', () => {
    expect(() => llmJudge('r', 0)).not.toThrow();
    expect(() => llmJudge('r', 1)).not.toThrow();
    expect(() => trajectory({ match: 'exact', tools: ['a'], minPrecision: 0, minRecall: 1 })).not.toThrow();
    expect(() => costUnder(0.000001)).not.toThrow();
    expect(() => durationUnder(0.5)).not.toThrow();
  });
});

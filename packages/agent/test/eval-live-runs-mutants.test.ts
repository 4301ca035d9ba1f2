import { describe, expect, it } from 'vitest';
import { createOfflineLLM, type EvalSuite, parseEvalSuite, runEvalSuite } from '../src/index.js';
import { evalAgent } from './support/eval-recordings.js';

const finishing = (message: string) =>
  createOfflineLLM({ script: [{ toolCalls: [{ name: 'finish', arguments: { message } }] }] });

const bananaCase = (runs: number): EvalSuite =>
  parseEvalSuite({
    cases: [{ id: 'banana', task: 'Say banana', runs, scorers: [{ type: 'final-answer', pattern: '^banana$' }] }],
  });

describe('runEvalSuite, the k of pass@k', () => {
  it('raises a k below 1 to one draw, rather than falling back to every run', async () => {
    // Runs 1 and 3 pass: one draw passes 2 times in 3, all three draws never pass together.
    const report = await runEvalSuite(bananaCase(3), {
      llm: ({ run }) => finishing(run === 2 ? 'apple' : 'banana'),
      agent: (llm) => evalAgent(llm),
      k: 0,
    });
    const [entry] = report.cases;
    expect(entry?.k).toBe(1);
    expect(entry?.passAtK).toBeCloseTo(2 / 3, 12);
    expect(entry?.passHatK).toBeCloseTo(2 / 3, 12);
  });
});

describe('runEvalSuite, a case with no runs', () => {
  it('reports a pass rate of 0 (not NaN) and one draw when asked for no runs', async () => {
    const suite = parseEvalSuite({ cases: [{ id: 'idle', task: 'T', scorers: ['no-errors'] }] });
    const report = await runEvalSuite(suite, { llm: () => finishing('ok'), agent: (llm) => evalAgent(llm), runs: 0 });
    expect(report.cases[0]).toEqual({
      id: 'idle',
      mode: 'live',
      runs: [],
      passed: 0,
      passRate: 0,
      k: 1,
      passAtK: 0,
      passHatK: 0,
      judgeCostUsd: 0,
    });
  });
});

describe('runEvalSuite, a run that cannot be made', () => {
  it('records it as a failure that cost nothing and took no time', async () => {
    const report = await runEvalSuite(bananaCase(1), {
      llm: () => finishing('banana'),
      agent: () => {
        throw new Error('no agent today');
      },
    });
    expect(report.cases[0]?.runs).toEqual([
      { run: 1, passed: false, scores: [], costUsd: 0, durationSeconds: 0, error: 'no agent today' },
    ]);
  });
});

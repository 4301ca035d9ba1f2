import { describe, expect, it } from 'vitest';
import { createOfflineLLM, type EvalSuite, type LLM, parseEvalSuite, runEvalSuite } from '../src/index.js';
import { evalAgent } from './support/eval-recordings.js';

const finishing = (message: string) =>
  createOfflineLLM({ script: [{ toolCalls: [{ name: 'finish', arguments: { message } }] }] });

const bananaCase = (runs: number): EvalSuite =>
  parseEvalSuite({
    cases: [{ id: 'banana', task: 'Say banana', runs, scorers: [{ type: 'final-answer', pattern: '^banana$' }] }],
  });

describe('runEvalSuite, the k of pass@k', () => {
  it('draws one run at k = 1: runs 1 and 3 pass, so one draw passes 2 times in 3', async () => {
    const report = await runEvalSuite(bananaCase(3), {
      llm: ({ run }) => finishing(run === 2 ? 'apple' : 'banana'),
      agent: (llm) => evalAgent(llm),
      k: 1,
    });
    const [entry] = report.cases;
    expect(entry?.k).toBe(1);
    expect(entry?.passAtK).toBeCloseTo(2 / 3, 12);
    expect(entry?.passHatK).toBeCloseTo(2 / 3, 12);
  });

  it('refuses k = 0 (and asking for no runs) with the option named: eval-options.test.ts has the rest', async () => {
    const options = { llm: () => finishing('banana'), agent: (llm: LLM) => evalAgent(llm) };
    await expect(runEvalSuite(bananaCase(3), { ...options, k: 0 })).rejects.toMatchObject({ option: 'k' });
    await expect(runEvalSuite(bananaCase(3), { ...options, runs: 0 })).rejects.toMatchObject({ option: 'runs' });
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

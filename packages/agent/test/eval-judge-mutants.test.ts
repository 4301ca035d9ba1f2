import { describe, expect, it } from 'vitest';
import {
  createScorer,
  type EvalToolCall,
  llmJudge,
  parseEvalSuite,
  type ScorerConfig,
  scoreRun,
  scorerTypes,
} from '../src/index.js';
import { requestText, runWith, scriptedJudge } from './support/eval-fakes.js';

const call = (tool: string, args: Record<string, unknown> = {}): EvalToolCall => ({ tool, arguments: args });

describe('llm-judge', () => {
  it('shows the judge the rubric, the numbered calls, the errors and the answer, asking for a 0-to-1 grade', async () => {
    const judge = scriptedJudge(['{"score": 0.8, "reason": "ok"}']);
    const run = runWith({
      task: 'Fix the bug',
      toolCalls: [call('terminal', { command: 'ls' }), call('finish', { message: 'Fixed' })],
      errors: ['tool broke'],
      finalAnswer: 'Fixed',
    });
    await llmJudge('Fixes the bug.').score(run, { judge });
    const shown = requestText(judge.requests[0]);
    expect(shown).toContain('{"score": <number from 0 to 1>, "reason": "<one sentence>"}');
    expect(shown).toContain(
      'Rubric:\nFixes the bug.\n\nTask:\nFix the bug\n\nTool calls:\n1. terminal {"command":"ls"}\n2. finish {"message":"Fixed"}\n\nErrors:\ntool broke\n\nFinal answer:\nFixed',
    );
  });

  it('says "(none)" for what the run lacks', async () => {
    const judge = scriptedJudge(['{"score": 0}']);
    await llmJudge('Anything.').score(runWith({ task: 'T' }), { judge });
    expect(requestText(judge.requests[0])).toContain('Tool calls:\n(none)\n\nErrors:\n(none)\n\nFinal answer:\n(none)');
  });

  it('passes at the threshold (0.7 by default), fails below, and takes the first {...} of a chatty reply', async () => {
    const judge = scriptedJudge([
      'Here is my verdict: {"score": 0.7, "reason": "just enough"} Thanks.',
      '{"score": 0.69}',
      '{"score": 0.5}',
      '{"score": 0}',
    ]);
    const scorer = llmJudge('Rubric.');
    const atDefault = await scorer.score(runWith(), { judge });
    expect(atDefault).toEqual({
      scorer: 'llm-judge',
      passed: true,
      score: 0.7,
      detail: 'graded 0.7 (threshold 0.7): just enough',
      costUsd: 0.002,
    });
    expect(await scorer.score(runWith(), { judge })).toMatchObject({ passed: false, score: 0.69 });
    expect(await llmJudge('Rubric.', 0.5).score(runWith(), { judge })).toMatchObject({ passed: true, score: 0.5 });
    expect(await llmJudge('Rubric.', 0).score(runWith(), { judge })).toMatchObject({ passed: true, score: 0 });
  });

  it('finds the verdict after braces in the prose, and keeps braces inside its reason', async () => {
    const judge = scriptedJudge(['The agent ran {ls} first. {"score": 0.9, "reason": "used {braces}"} Done.']);
    expect(await llmJudge('Rubric.').score(runWith(), { judge })).toMatchObject({
      passed: true,
      score: 0.9,
      detail: 'graded 0.9 (threshold 0.7): used {braces}',
    });
  });

  it('fails with score 0 on a reply that is no verdict, showing at most 120 characters of it', async () => {
    const long = `${'y'.repeat(117)}ZZZZ`;
    const exact = 'n'.repeat(120);
    const judge = scriptedJudge([long, exact, '{"score": 1.5, "reason": "too good"}', '{"score": "high"}', '{broken']);
    const scorer = llmJudge('Rubric.');
    const cut = await scorer.score(runWith(), { judge });
    expect(cut).toEqual({
      scorer: 'llm-judge',
      passed: false,
      score: 0,
      detail: `the judge's reply is not a {"score", "reason"} verdict: "${'y'.repeat(117)}..."`,
      costUsd: 0.002,
    });
    expect((await scorer.score(runWith(), { judge })).detail).toContain(`verdict: "${exact}"`);
    for (let index = 0; index < 3; index++) {
      expect(await scorer.score(runWith(), { judge })).toMatchObject({ passed: false, score: 0 });
    }
  });

  it('fails without a judge, with score 0 and without asking anything', async () => {
    expect(await llmJudge('Rubric.').score(runWith(), {})).toEqual({
      scorer: 'llm-judge',
      passed: false,
      score: 0,
      detail: 'no judge model configured',
    });
  });
});

describe('scorer configs', () => {
  const parse = (scorer: unknown) => parseEvalSuite({ cases: [{ id: 'c', task: 't', scorers: [scorer] }] });

  it('accept the bounds of every setting', () => {
    const accepted: unknown[] = [
      { type: 'trajectory', match: 'exact', tools: ['a'], minPrecision: 0, minRecall: 0 },
      { type: 'trajectory', match: 'exact', tools: [{ tool: 'a' }], minPrecision: 0.5, minRecall: 0.5 },
      { type: 'trajectory', match: 'exact', tools: ['a'], minPrecision: 1, minRecall: 1 },
      { type: 'llm-judge', rubric: 'r', threshold: 0 },
      { type: 'llm-judge', rubric: 'r', threshold: 0.5 },
      { type: 'llm-judge', rubric: 'r', threshold: 1 },
    ];
    for (const scorer of accepted) expect(() => parse(scorer), JSON.stringify(scorer)).not.toThrow();
  });

  it('refuse empty names, paths, patterns and rubrics', () => {
    const refused: unknown[] = [
      { type: 'trajectory', match: 'exact', tools: [] },
      { type: 'trajectory', match: 'exact', tools: [''] },
      { type: 'trajectory', match: 'exact', tools: [{ tool: '' }] },
      { type: 'trajectory', match: 'exact', tools: ['a'], minRecall: 1.5 },
      { type: 'files-within', paths: [] },
      { type: 'files-within', paths: [''] },
      { type: 'final-answer', pattern: '' },
      { type: 'llm-judge', rubric: '' },
      { type: 'llm-judge', rubric: 'r', threshold: 1.5 },
    ];
    for (const scorer of refused) expect(() => parse(scorer), JSON.stringify(scorer)).toThrow();
  });

  it('each build the scorer of their type', () => {
    const configs: ScorerConfig[] = [
      { type: 'no-errors' },
      { type: 'cost-under', usd: 1 },
      { type: 'duration-under', seconds: 1 },
      { type: 'files-within', paths: ['.'] },
      { type: 'final-answer', pattern: 'x' },
      { type: 'trajectory', match: 'exact', tools: ['a'] },
      { type: 'llm-judge', rubric: 'r' },
    ];
    expect(configs.map((config) => createScorer(config).name)).toEqual(scorerTypes);
  });
});

describe('scoreRun', () => {
  it('runs every scorer in order, turning one that throws into a failure naming its message', async () => {
    const results = await scoreRun(runWith(), [
      { name: 'first', score: async () => ({ scorer: 'first', passed: true, score: 1, detail: 'fine' }) },
      {
        name: 'broken',
        score: async () => {
          throw new Error('cannot read the workspace');
        },
      },
      createScorer({ type: 'no-errors' }),
    ]);
    expect(results).toEqual([
      { scorer: 'first', passed: true, score: 1, detail: 'fine' },
      { scorer: 'broken', passed: false, score: 0, detail: 'the scorer failed: cannot read the workspace' },
      { scorer: 'no-errors', passed: true, score: 1, detail: 'no errors' },
    ]);
  });
});

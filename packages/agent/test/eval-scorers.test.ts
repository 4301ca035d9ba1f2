import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  costUnder,
  createOpenAILLM,
  durationUnder,
  type EvalRun,
  evalRunFromEvents,
  filesWithin,
  finalAnswerMatches,
  llmJudge,
  noErrors,
  readRecordedConversation,
  type ScorerContext,
  trajectory,
} from '../src/index.js';
import { startScriptedLLMServer } from '../src/testing/index.js';
import { BAD_SCRIPT, GOOD_SCRIPT, recordConversation } from './support/eval-recordings.js';

let root: string;
let good: EvalRun;
let bad: EvalRun;

async function runOf(location: string): Promise<EvalRun> {
  const recording = await readRecordedConversation(location);
  return evalRunFromEvents(recording.events, { workspace: recording.workspace });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-eval-scorers-'));
  good = await runOf(await recordConversation(root, GOOD_SCRIPT));
  bad = await runOf(await recordConversation(root, BAD_SCRIPT));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const none: ScorerContext = {};

describe('an EvalRun read from a recorded conversation', () => {
  it('has the task, tool calls, final answer, cost, duration and written files', () => {
    expect(good.task).toBe('Write notes.txt and show it');
    expect(good.toolCalls.map((call) => call.tool)).toEqual(['file_editor', 'terminal', 'finish']);
    expect(good.toolCalls[0]?.arguments).toMatchObject({ command: 'create', path: 'notes.txt' });
    expect(good.finalAnswer).toBe('Wrote notes.txt: alpha');
    expect(good.status).toBe('finished');
    // 3 calls of 10 prompt + 5 completion tokens at gpt-4o's price.
    expect(good.costUsd).toBeCloseTo((3 * (10 * 2.5 + 5 * 10)) / 1e6, 9);
    expect(good.durationSeconds).toBeGreaterThan(0);
    expect(good.filesWritten).toEqual(['notes.txt']);
    expect(good.errors).toEqual([]);
    expect(bad.errors[0]).toContain('no_such_tool');
  });
});

describe('scorers, each passing and failing on real recordings', () => {
  it('no-errors', async () => {
    expect((await noErrors().score(good, none)).passed).toBe(true);
    const failed = await noErrors().score(bad, none);
    expect(failed.passed).toBe(false);
    expect(failed.detail).toContain('no_such_tool');
  });

  it('cost-under', async () => {
    expect((await costUnder(0.01).score(good, none)).passed).toBe(true);
    const failed = await costUnder(0.0001).score(good, none);
    expect(failed).toMatchObject({ passed: false, score: 0 });
    expect(failed.detail).toContain('>= $0.0001');
  });

  it('duration-under', async () => {
    expect((await durationUnder(3600).score(good, none)).passed).toBe(true);
    expect((await durationUnder(1e-9).score(good, none)).passed).toBe(false);
  });

  it('files-within', async () => {
    expect((await filesWithin(['notes.txt']).score(good, none)).passed).toBe(true);
    expect((await filesWithin(['.']).score(good, none)).passed).toBe(true);
    const failed = await filesWithin(['notes.txt', 'docs/']).score(bad, none);
    expect(failed.passed).toBe(false);
    expect(failed.detail).toContain('src/other.txt');
    expect((await filesWithin(['src']).score(bad, none)).passed).toBe(true);
  });

  it('final-answer', async () => {
    expect((await finalAnswerMatches('wrote notes', 'i').score(good, none)).passed).toBe(true);
    const failed = await finalAnswerMatches('^Wrote').score(bad, none);
    expect(failed.passed).toBe(false);
    expect(failed.detail).toContain('"Something else" does not match /^Wrote/');
  });

  it('trajectory: exact', async () => {
    const exact = trajectory({ match: 'exact', tools: ['file_editor', 'terminal', 'finish'] });
    expect(await exact.score(good, none)).toMatchObject({ passed: true, score: 1 });
    const missing = await trajectory({ match: 'exact', tools: ['file_editor', 'finish'] }).score(good, none);
    expect(missing.passed).toBe(false);
    expect(missing.detail).toContain('precision 0.67 (min 1), recall 1.00');
  });

  it('trajectory: in order, with arguments', async () => {
    const inOrder = trajectory({
      match: 'in-order',
      tools: [{ tool: 'file_editor', arguments: { command: 'create', path: 'notes.txt' } }, 'finish'],
    });
    expect((await inOrder.score(good, none)).passed).toBe(true);
    expect((await trajectory({ match: 'in-order', tools: ['finish', 'file_editor'] }).score(good, none)).passed).toBe(
      false,
    );
    const wrongArguments = trajectory({
      match: 'in-order',
      tools: [{ tool: 'file_editor', arguments: { path: 'x' } }],
    });
    expect((await wrongArguments.score(good, none)).passed).toBe(false);
  });

  it('trajectory: any order, with precision and recall thresholds', async () => {
    expect((await trajectory({ match: 'any-order', tools: ['finish', 'file_editor'] }).score(good, none)).passed).toBe(
      true,
    );
    const half = trajectory({ match: 'any-order', tools: ['finish', 'think'] });
    const failed = await half.score(good, none);
    expect(failed.passed).toBe(false);
    expect(failed.detail).toContain('recall 0.50 (min 1)');
    expect(
      (await trajectory({ match: 'any-order', tools: ['finish', 'think'], minRecall: 0.5 }).score(good, none)).passed,
    ).toBe(true);
    const precise = trajectory({ match: 'any-order', tools: ['finish'], minPrecision: 0.5 });
    expect((await precise.score(good, none)).passed).toBe(false);
  });

  it('llm-judge: asks the model over HTTP with the rubric, grades by threshold, reports its cost', async () => {
    const server = await startScriptedLLMServer([
      { content: '{"score": 0.9, "reason": "It wrote and showed the file."}' },
      { content: '{"score": 0.2, "reason": "Wrong file."}' },
      { content: 'I think it is fine.' },
    ]);
    try {
      const judge = createOpenAILLM({ model: 'gpt-4o', baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 });
      const responses: number[] = [];
      const context: ScorerContext = { judge, onJudgeResponse: (response) => responses.push(response.cost) };
      const scorer = llmJudge('The agent wrote notes.txt and showed its content.', 0.7);
      const passed = await scorer.score(good, context);
      expect(passed).toMatchObject({ passed: true, score: 0.9 });
      expect(passed.detail).toContain('It wrote and showed the file.');
      expect(passed.costUsd).toBeGreaterThan(0);
      const request = JSON.stringify(server.requests[0]);
      expect(request).toContain('The agent wrote notes.txt and showed its content.');
      expect(request).toContain('Wrote notes.txt: alpha');
      expect(await scorer.score(bad, context)).toMatchObject({ passed: false, score: 0.2 });
      const unreadable = await scorer.score(good, context);
      expect(unreadable.passed).toBe(false);
      expect(unreadable.detail).toContain('not a {"score", "reason"} verdict');
      expect(responses).toHaveLength(3);
      expect((await scorer.score(good, {})).detail).toBe('no judge model configured');
    } finally {
      await server.close();
    }
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createOpenAILLM,
  type EvalRun,
  evalRunFromEvents,
  InvalidEvalOptionError,
  llmJudge,
  noErrors,
  parseEvalSuite,
  runEvalSuite,
  type Scorer,
  scoreRun,
} from '../src/index.js';
import { GOOD_SCRIPT, recordConversation } from './support/eval-recordings.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A chat-completions endpoint on loopback that takes every request and never answers; `closed` counts the requests whose client hung up. */
async function silentModel(): Promise<{ baseURL: string; requests: () => number; closed: () => number }> {
  let requests = 0;
  let closed = 0;
  server = createServer((request, response) => {
    requests++;
    request.resume();
    response.on('close', () => {
      closed++;
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseURL: `http://127.0.0.1:${port}/v1`, requests: () => requests, closed: () => closed };
}

async function emptyRun(): Promise<EvalRun> {
  return evalRunFromEvents([]);
}

const hangs: Scorer = { name: 'hangs', score: () => new Promise(() => undefined) };

describe('scoreRun with scorers that throw, hang or answer nonsense', () => {
  it('fails a scorer that never answers once its time is up, and goes on with the next', async () => {
    const results = await scoreRun(await emptyRun(), [hangs, noErrors()], { scorerTimeoutSeconds: 0.05 });
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({ scorer: 'hangs', passed: false, score: 0 });
    expect(results[0]?.detail).toBe('the scorer failed: it did not answer within 0.05 s');
    expect(results[1]).toMatchObject({ scorer: 'no-errors', passed: true });
  });

  it('aborts the judge request of a timed-out llm-judge (the signal reaches the model call)', async () => {
    const model = await silentModel();
    const judge = createOpenAILLM({ model: 'judge', baseURL: model.baseURL, apiKey: 'sk-test', maxRetries: 0 });
    // The scorer's time runs out only once the request is at the server: on a loaded machine loading the SDK and
    // sending can take longer than any wall-clock limit, and the abort would then find no request to end.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const scoring = scoreRun(await emptyRun(), [llmJudge('anything')], { judge, scorerTimeoutSeconds: 0.5 });
      await expect.poll(() => model.requests(), { timeout: 30_000 }).toBe(1);
      expect(model.closed()).toBe(0);
      vi.advanceTimersByTime(500);
      const results = await scoring;
      expect(results[0]).toMatchObject({ scorer: 'llm-judge', passed: false });
      expect(results[0]?.detail).toContain('did not answer within 0.5 s');
    } finally {
      vi.useRealTimers();
    }
    await expect.poll(() => model.closed(), { timeout: 30_000 }).toBe(1);
    expect(model.requests()).toBe(1);
  });

  it('never passes a scorer whose result is not a score result', async () => {
    const shapes: unknown[] = [
      { scorer: 'x', passed: 'yes', score: 1, detail: '' },
      { scorer: 'x', passed: true, score: Number.NaN, detail: '' },
      { scorer: 'x', passed: true, score: 2, detail: '' },
      undefined,
      'passed',
    ];
    for (const shape of shapes) {
      const odd: Scorer = { name: 'odd', score: async () => shape as never };
      const [result] = await scoreRun(await emptyRun(), [odd]);
      expect(result).toMatchObject({ scorer: 'odd', passed: false, score: 0 });
      expect(result?.detail).toMatch(/^the scorer failed: it returned no score result/);
    }
  });

  it('names what a scorer threw, whether an Error or not, and one that throws before its promise', async () => {
    const throwsString: Scorer = {
      name: 'string',
      score: async () => {
        throw 'no luck';
      },
    };
    const throwsAtOnce: Scorer = {
      name: 'sync',
      score: () => {
        throw new Error('at once');
      },
    };
    const results = await scoreRun(await emptyRun(), [throwsString, throwsAtOnce]);
    expect(results.map((result) => result.detail)).toEqual([
      'the scorer failed: no luck',
      'the scorer failed: at once',
    ]);
  });

  it('refuses a time limit that is not above 0', async () => {
    for (const scorerTimeoutSeconds of [0, -1, Number.NaN]) {
      await expect(scoreRun(await emptyRun(), [noErrors()], { scorerTimeoutSeconds })).rejects.toBeInstanceOf(
        InvalidEvalOptionError,
      );
    }
  });
});

describe('runEvalSuite with a judge that never answers', () => {
  it('fails that run after scorerTimeoutSeconds and finishes the suite with the other scorers graded', async () => {
    const root = await mkdtemp(join(tmpdir(), 'x-eval-scorer-timeout-'));
    try {
      const location = await recordConversation(root, GOOD_SCRIPT);
      const model = await silentModel();
      const judge = createOpenAILLM({ model: 'judge', baseURL: model.baseURL, apiKey: 'sk-test', maxRetries: 0 });
      const suite = parseEvalSuite({
        name: 'slow-judge',
        cases: [
          {
            id: 'recorded',
            conversation: location,
            replay: false,
            scorers: ['no-errors', { type: 'llm-judge', rubric: 'Good.' }],
          },
        ],
      });
      const report = await runEvalSuite(suite, { judge, scorerTimeoutSeconds: 0.3 });
      const [run] = report.cases[0]?.runs ?? [];
      expect(run?.passed).toBe(false);
      expect(run?.scores.map((score) => [score.scorer, score.passed])).toEqual([
        ['no-errors', true],
        ['llm-judge', false],
      ]);
      expect(run?.scores[1]?.detail).toBe('the scorer failed: it did not answer within 0.3 s');
      await expect(runEvalSuite(suite, { judge, scorerTimeoutSeconds: 0 })).rejects.toMatchObject({
        code: 'invalid_eval_option',
        option: 'scorerTimeoutSeconds',
      });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

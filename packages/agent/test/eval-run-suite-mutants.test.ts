import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOfflineLLM,
  type EvalAgentContext,
  InvalidEvalSuiteError,
  type LLM,
  loadSuite,
  parseEvalSuite,
  promoteConversation,
  readRecordedConversation,
  replayRecording,
  runEvalSuite,
} from '../src/index.js';
import { evalAgent, GOOD_SCRIPT, recordConversation, TASK } from './support/eval-recordings.js';

let root: string;
let recorded: string;
let chatty: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-eval-run-suite-'));
  recorded = await recordConversation(root, GOOD_SCRIPT);
  // A reply without tool calls: the conversation ends with an answer and no trajectory.
  chatty = await recordConversation(root, [{ content: 'Just an answer.' }]);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const finishing = (message: string) =>
  createOfflineLLM({ script: [{ toolCalls: [{ name: 'finish', arguments: { message } }] }] });

describe('runEvalSuite, live', () => {
  it('draws k from the runs when asked, and reports no judge without one', async () => {
    const suite = parseEvalSuite({
      cases: [{ id: 'flaky', task: 'Say banana', runs: 3, scorers: [{ type: 'final-answer', pattern: '^banana$' }] }],
    });
    const report = await runEvalSuite(suite, {
      llm: ({ run }) => finishing(run === 2 ? 'apple' : 'banana'),
      agent: (llm) => evalAgent(llm),
      k: 1,
    });
    expect(report.suite).toBe('eval');
    expect(report).not.toHaveProperty('judge');
    const [entry] = report.cases;
    expect(entry).toMatchObject({ passed: 2, k: 1, judgeCostUsd: 0 });
    expect(entry?.passAtK).toBeCloseTo(2 / 3, 12);
    expect(entry?.passHatK).toBeCloseTo(2 / 3, 12);
    // No persistence directory: the runs' conversations are not kept, so no location is given.
    expect(entry?.runs.map((run) => 'location' in run)).toEqual([false, false, false]);
  });

  it('makes the case runs, else the suite runs, else the runs asked, else one', async () => {
    const cases = [
      { id: 'own', task: 'T', runs: 1, scorers: ['no-errors'] },
      { id: 'inherited', task: 'T', scorers: ['no-errors'] },
    ];
    const options = { llm: () => finishing('ok'), agent: (llm: LLM) => evalAgent(llm), runs: 3 };
    const withSuiteRuns = await runEvalSuite(parseEvalSuite({ runs: 2, cases }), options);
    expect(withSuiteRuns.cases.map((entry) => entry.runs.length)).toEqual([1, 2]);
    const withAsked = await runEvalSuite(parseEvalSuite({ cases }), options);
    expect(withAsked.cases.map((entry) => entry.runs.length)).toEqual([1, 3]);
    const byDefault = await runEvalSuite(parseEvalSuite({ cases }), { ...options, runs: undefined });
    expect(byDefault.cases.map((entry) => entry.runs.length)).toEqual([1, 1]);
  });

  it('fails each run it cannot make, saying why, and goes on', async () => {
    const suite = parseEvalSuite({ name: 'broken', cases: [{ id: 'a', task: 'T', runs: 2, scorers: ['no-errors'] }] });
    const noModel = await runEvalSuite(suite);
    expect(noModel.suite).toBe('broken');
    expect(noModel.cases[0]).toMatchObject({ passed: 0, passRate: 0, passAtK: 0 });
    expect(noModel.cases[0]?.runs).toEqual([
      { run: 1, passed: false, scores: [], costUsd: 0, durationSeconds: 0, error: 'no model for live runs' },
      { run: 2, passed: false, scores: [], costUsd: 0, durationSeconds: 0, error: 'no model for live runs' },
    ]);
    const throwing = await runEvalSuite(suite, {
      llm: () => finishing('ok'),
      agent: () => {
        throw new Error('the agent cannot be built');
      },
    });
    expect(throwing.cases[0]?.runs.map((run) => [run.run, run.passed, run.error])).toEqual([
      [1, false, 'the agent cannot be built'],
      [2, false, 'the agent cannot be built'],
    ]);
  });
});

describe('runEvalSuite, recorded', () => {
  it('replays as run 1 of the case, telling the agent factory so, and names the recording', async () => {
    const contexts: EvalAgentContext[] = [];
    const suite = parseEvalSuite({ cases: [{ id: 'notes', conversation: recorded, scorers: ['no-errors'] }] });
    const report = await runEvalSuite(suite, {
      agent: (llm, context) => {
        contexts.push(context);
        return evalAgent(llm);
      },
    });
    expect(contexts).toEqual([{ caseId: 'notes', run: 1, mode: 'replay', condenser: undefined }]);
    const recording = await readRecordedConversation(recorded);
    expect(report.cases[0]).toMatchObject({ mode: 'replay', passed: 1, k: 1, passAtK: 1, passHatK: 1 });
    expect(report.cases[0]?.runs[0]).toMatchObject({ run: 1, conversationId: recording.id, location: recorded });
  });
});

describe('replayRecording', () => {
  it("reports a divergence when today's agent stops before the recorded requests, and leaves no files behind", async () => {
    const scratch = await mkdtemp(join(root, 'tmp-'));
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = scratch;
    try {
      const recording = await readRecordedConversation(recorded);
      // Today's agent gives up after its first request: the other two recorded requests are never made.
      const outcome = await replayRecording(recording, {
        caseId: 'short',
        agent: (llm) => {
          let calls = 0;
          const givingUp: LLM = {
            model: llm.model,
            usageId: llm.usageId,
            offline: llm.offline,
            complete: (request) => (++calls > 1 ? Promise.reject(new Error('gave up')) : llm.complete(request)),
          };
          return evalAgent(givingUp);
        },
      });
      expect(outcome.divergence?.requestIndex).toBe(1);
      expect(outcome).toMatchObject({ matched: 1, recorded: 3 });
      const same = await replayRecording(recording, { caseId: 'same', agent: (llm) => evalAgent(llm) });
      expect(same).toEqual({ divergence: undefined, matched: 3, recorded: 3 });
      expect(await readdir(scratch)).toEqual([]);
    } finally {
      process.env.TMPDIR = previous;
      if (previous === undefined) delete process.env.TMPDIR;
    }
  });
});

describe('promoteConversation', () => {
  async function suiteAt(name: string, text?: string): Promise<string> {
    const directory = join(root, 'suites');
    await mkdir(directory, { recursive: true });
    const path = join(directory, name);
    if (text !== undefined) await writeFile(path, text);
    return path;
  }

  it('makes a case of the task, the answer and (when there are some) the tool calls, from a sibling directory', async () => {
    const path = await suiteAt('chatty.yaml');
    const added = await promoteConversation({ location: chatty, suitePath: path, id: 'chat' });
    expect(added).toEqual({
      id: 'chat',
      description: TASK,
      conversation: relative(join(root, 'suites'), chatty),
      scorers: [{ type: 'no-errors' }, { type: 'final-answer', pattern: '^Just an answer\\.$' }],
    });
    expect(added.conversation).toMatch(/^\.\.\//);
    expect((await loadSuite(path)).cases).toEqual([added]);
  });

  it('keeps the scorers given, and appends to a JSON suite', async () => {
    const path = await suiteAt(
      'given.json',
      JSON.stringify({ cases: [{ id: 'a', task: 't', scorers: ['no-errors'] }] }),
    );
    const scorers = [{ type: 'cost-under' as const, usd: 1 }];
    const added = await promoteConversation({ location: recorded, suitePath: path, id: 'b', scorers });
    expect(added.scorers).toEqual(scorers);
    const written = JSON.parse(await readFile(path, 'utf8')) as { cases: { id: string }[] };
    expect(written.cases.map((entry) => entry.id)).toEqual(['a', 'b']);
  });

  it('refuses, leaving the file as it was, what would not load', async () => {
    const refusal = async (path: string, scorers?: []) => {
      const before = await readFile(path, 'utf8').catch(() => undefined);
      const error = await promoteConversation({ location: recorded, suitePath: path, id: 'x', scorers }).catch(
        (caught: unknown) => caught,
      );
      expect(InvalidEvalSuiteError.isInstance(error)).toBe(true);
      expect(await readFile(path, 'utf8').catch(() => undefined)).toBe(before);
      return error as InvalidEvalSuiteError;
    };
    expect((await refusal(await suiteAt('broken.yaml', 'cases: [\n'))).message).toContain('not valid YAML/JSON');
    const notList = await refusal(await suiteAt('map.yaml', 'cases:\n  first: 1\n'));
    expect([notList.field, notList.message]).toEqual(['cases', expect.stringContaining('is not a list')]);
    const invalidCase = await refusal(await suiteAt('invalid.yaml', 'cases:\n  - id: a\n    task: t\n'));
    expect(invalidCase.caseId).toBe('a');
    await refusal(await suiteAt('empty-scorers.yaml'), []);
  });
});

describe('parseEvalSuite, the suite’s own fields', () => {
  it('names the suite field at fault: an empty name, or runs out of range', () => {
    const cases = [{ id: 'a', task: 't', scorers: ['no-errors'] }];
    for (const [suite, field] of [
      [{ name: '', cases }, 'name'],
      [{ runs: 0, cases }, 'runs'],
      [{ runs: 1.5, cases }, 'runs'],
      [{ runs: 1001, cases }, 'runs'],
    ] as const) {
      const error = (() => {
        try {
          parseEvalSuite(suite);
        } catch (caught) {
          return caught;
        }
      })();
      expect(InvalidEvalSuiteError.isInstance(error), JSON.stringify(suite)).toBe(true);
      expect((error as InvalidEvalSuiteError).field, JSON.stringify(suite)).toBe(field);
      expect((error as InvalidEvalSuiteError).caseId, JSON.stringify(suite)).toBeUndefined();
    }
    expect(parseEvalSuite({ name: 'n', runs: 1000, cases })).toMatchObject({ name: 'n', runs: 1000 });
  });
});

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compareToBaseline,
  createOfflineLLM,
  createOpenAILLM,
  EvalConversationNotFoundError,
  type EvalReport,
  InvalidEvalSuiteError,
  loadSuite,
  type OfflineTurn,
  parseEvalSuite,
  passAtK,
  passHatK,
  promoteConversation,
  renderHtmlReport,
  runEvalSuite,
} from '../src/index.js';
import { startScriptedLLMServer } from '../src/testing/index.js';
import { evalAgent, GOOD_SCRIPT, recordConversation } from './support/eval-recordings.js';

let root: string;
let recorded: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-eval-suite-'));
  recorded = await recordConversation(root, GOOD_SCRIPT);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function suiteFile(name: string, text: string): Promise<string> {
  const path = join(root, name);
  await writeFile(path, text);
  return path;
}

function invalid(error: unknown): InvalidEvalSuiteError {
  expect(InvalidEvalSuiteError.isInstance(error)).toBe(true);
  return error as InvalidEvalSuiteError;
}

describe('loadSuite', () => {
  it('reads YAML with scorer shorthands and JSON', async () => {
    const yaml = await loadSuite(
      await suiteFile(
        'ok.yaml',
        `name: notes\ncases:\n  - id: write\n    task: Write notes.txt\n    scorers:\n      - no-errors\n      - { type: cost-under, usd: 0.5 }\n`,
      ),
    );
    expect(yaml.name).toBe('notes');
    expect(yaml.cases[0]?.scorers).toEqual([{ type: 'no-errors' }, { type: 'cost-under', usd: 0.5 }]);
    expect(yaml.directory).toBe(root);
    const json = await loadSuite(
      await suiteFile('ok.json', JSON.stringify({ cases: [{ id: 'a', conversation: './x', scorers: ['no-errors'] }] })),
    );
    expect(json.cases[0]?.conversation).toBe('./x');
  });

  it('names the case and field of an unknown scorer', async () => {
    const path = await suiteFile(
      'unknown.yaml',
      'cases:\n  - id: first\n    task: t\n    scorers: [no-errors, { type: vibes }]\n',
    );
    const error = invalid(await loadSuite(path).catch((e: unknown) => e));
    expect(error.code).toBe('invalid_eval_suite');
    expect(error.caseId).toBe('first');
    expect(error.field).toBe('scorers.1.type');
    expect(error.message).toContain('unknown scorer "vibes" (known: no-errors, cost-under');
    expect(error.message).toContain(path);
  });

  it('names the case and field of a malformed case', () => {
    const cases = [
      [{ id: 'a', task: 't', scorers: [{ type: 'cost-under', usd: -1 }] }, 'a', 'scorers.0.usd'],
      [{ id: 'b', task: 't', conversation: 'c', scorers: ['no-errors'] }, 'b', 'task'],
      [{ id: 'c', task: 't', scorers: [] }, 'c', 'scorers'],
      [{ task: 't', scorers: ['no-errors'] }, 'cases[0]', 'id'],
      [{ id: 'd', task: 't', scorers: [{ type: 'final-answer', pattern: '(' }] }, 'd', 'scorers.0.pattern'],
      [
        { id: 'e', task: 't', scorers: [{ type: 'trajectory', match: 'sideways', tools: ['x'] }] },
        'e',
        'scorers.0.match',
      ],
      [{ id: 'f', task: 't', extra: 1, scorers: ['no-errors'] }, 'f', ''],
    ] as const;
    for (const [entry, caseId, field] of cases) {
      const error = invalid(
        (() => {
          try {
            parseEvalSuite({ cases: [entry] });
          } catch (caught) {
            return caught;
          }
        })(),
      );
      expect(error.caseId, JSON.stringify(entry)).toBe(caseId);
      expect(error.field ?? '', JSON.stringify(entry)).toBe(field);
    }
    expect(() => parseEvalSuite({ cases: [] })).toThrow(/at least one case/);
    expect(() =>
      parseEvalSuite({
        cases: [
          { id: 'a', task: 't', scorers: ['no-errors'] },
          { id: 'a', task: 'u', scorers: ['no-errors'] },
        ],
      }),
    ).toThrow(/case a, field id: two cases have this id/);
  });

  it('rejects text that is not YAML', async () => {
    const error = invalid(await loadSuite(await suiteFile('bad.yaml', 'cases: [\n')).catch((e: unknown) => e));
    expect(error.message).toContain('not valid YAML');
  });
});

describe('pass@k and pass^k', () => {
  it('follow the unbiased estimators', () => {
    expect(passAtK(3, 2, 1)).toBeCloseTo(2 / 3);
    expect(passAtK(3, 2, 3)).toBe(1);
    expect(passAtK(3, 0, 3)).toBe(0);
    expect(passHatK(3, 2, 1)).toBeCloseTo(2 / 3);
    expect(passHatK(3, 2, 2)).toBeCloseTo(1 / 3);
    expect(passHatK(3, 2, 3)).toBe(0);
    expect(passHatK(3, 3, 3)).toBe(1);
  });
});

describe('runEvalSuite', () => {
  it('runs a live case N times (fresh model each run) and reports pass rate, pass@k and pass^k', async () => {
    const suite = parseEvalSuite({
      name: 'live',
      cases: [
        {
          id: 'answer',
          task: 'Say the word',
          runs: 3,
          scorers: ['no-errors', { type: 'final-answer', pattern: '^banana$' }],
        },
      ],
    });
    // The second run answers wrongly: a flaky agent.
    const script = (run: number): OfflineTurn[] => [
      { toolCalls: [{ name: 'finish', arguments: { message: run === 2 ? 'apple' : 'banana' } }] },
    ];
    const runs: number[] = [];
    const persistenceDir = join(root, 'live-conversations');
    const report = await runEvalSuite(suite, {
      llm: ({ run }) => createOfflineLLM({ script: script(run) }),
      agent: (llm) => evalAgent(llm),
      persistenceDir,
      onRun: (_caseId, result) => runs.push(result.run),
      now: () => new Date('2026-01-02T03:04:05Z'),
    });
    expect(runs).toEqual([1, 2, 3]);
    const [entry] = report.cases;
    expect(entry).toMatchObject({ id: 'answer', mode: 'live', passed: 2, k: 3, passAtK: 1, passHatK: 0 });
    expect(entry?.passRate).toBeCloseTo(2 / 3);
    expect(entry?.runs.map((run) => run.passed)).toEqual([true, false, true]);
    expect(entry?.runs[1]?.scores[1]?.detail).toContain('"apple" does not match');
    // Kept where asked, so a run can be promoted.
    expect(entry?.runs[0]?.location).toContain(persistenceDir);
    expect(report.createdAt).toBe('2026-01-02T03:04:05.000Z');
  });

  it('replays a recorded conversation strictly: passes unchanged, diverges on a changed prompt or tool set', async () => {
    const suite = parseEvalSuite(
      {
        cases: [
          {
            id: 'notes',
            conversation: `./${basename(join(recorded, '..'))}/${basename(recorded)}`,
            scorers: [
              'no-errors',
              { type: 'trajectory', match: 'exact', tools: ['file_editor', 'terminal', 'finish'] },
            ],
          },
        ],
      },
      { directory: root },
    );
    const same = await runEvalSuite(suite, { agent: (llm) => evalAgent(llm) });
    expect(same.cases[0]).toMatchObject({ mode: 'replay', passed: 1, passRate: 1 });
    expect(same.cases[0]?.runs[0]?.costUsd).toBeGreaterThan(0);

    const prompt = await runEvalSuite(suite, {
      agent: (llm) => evalAgent(llm, { systemPrompt: 'A different system prompt.' }),
    });
    const diverged = prompt.cases[0]?.runs[0];
    expect(diverged).toMatchObject({ passed: false, scores: [] });
    expect(diverged?.divergence).toMatchObject({ requestIndex: 0, path: 'messages[0].content[0].text' });
    expect(diverged?.divergence?.diff).toContain('+ A different system prompt.');

    const tools = await runEvalSuite(suite, {
      agent: (llm) => evalAgent(llm, { tools: evalAgent(llm).tools.filter((tool) => tool.name !== 'task_tracker') }),
    });
    expect(tools.cases[0]?.runs[0]?.divergence?.requestIndex).toBe(0);
    expect(tools.cases[0]?.runs[0]?.divergence?.path).toMatch(/^tools/);

    // replay: false scores the recording as it is, whatever today's agent is.
    const asRecorded = parseEvalSuite({ cases: [{ ...suite.cases[0], replay: false }] }, { directory: root });
    const scored = await runEvalSuite(asRecorded, {
      agent: (llm) => evalAgent(llm, { systemPrompt: 'A different system prompt.' }),
    });
    expect(scored.cases[0]).toMatchObject({ mode: 'recorded', passed: 1 });
  });

  it('finds a recording by id in the persistence directory, and names a missing one', async () => {
    const id = basename(recorded);
    const suite = parseEvalSuite({ cases: [{ id: 'by-id', conversation: id, replay: false, scorers: ['no-errors'] }] });
    const report = await runEvalSuite(suite, { persistenceDir: join(root, 'conversations') });
    expect(report.cases[0]?.passed).toBe(1);
    const missing = parseEvalSuite({ cases: [{ id: 'gone', conversation: 'nope', scorers: ['no-errors'] }] });
    const error = await runEvalSuite(missing, { persistenceDir: join(root, 'conversations') }).catch((e: unknown) => e);
    expect(EvalConversationNotFoundError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('case gone, field conversation');
  });

  it('meters the judge like any model: calls, tokens and cost in the report', async () => {
    const server = await startScriptedLLMServer([{ content: '{"score": 1, "reason": "fine"}' }]);
    try {
      const suite = parseEvalSuite({
        cases: [
          {
            id: 'judged',
            conversation: recorded,
            replay: false,
            scorers: [{ type: 'llm-judge', rubric: 'Wrote the file.' }],
          },
        ],
      });
      const judge = createOpenAILLM({ model: 'gpt-4o', baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 });
      const report = await runEvalSuite(suite, { judge });
      expect(report.judge).toMatchObject({ model: 'gpt-4o', calls: 1, promptTokens: 10, completionTokens: 5 });
      expect(report.judge?.costUsd).toBeCloseTo((10 * 2.5 + 5 * 10) / 1e6, 9);
      expect(report.cases[0]?.judgeCostUsd).toBeCloseTo(report.judge?.costUsd ?? -1, 12);
    } finally {
      await server.close();
    }
  });
});

describe('compareToBaseline and the HTML report', () => {
  const report = (rates: Record<string, number>): EvalReport => ({
    suite: 's',
    createdAt: '2026-01-01T00:00:00.000Z',
    cases: Object.entries(rates).map(([id, passRate]) => ({
      id,
      mode: 'live' as const,
      runs: [{ run: 1, passed: passRate === 1, scores: [], costUsd: 0, durationSeconds: 0 }],
      passed: passRate === 1 ? 1 : 0,
      passRate,
      k: 1,
      passAtK: passRate,
      passHatK: passRate,
      judgeCostUsd: 0,
    })),
  });

  it('flags a case whose pass rate fell, beyond the tolerance', () => {
    const comparison = compareToBaseline(report({ a: 0.5, b: 1, c: 1 }), report({ a: 1, b: 0.5, d: 1 }));
    expect(comparison.regressions).toEqual([{ id: 'a', baselinePassRate: 1, passRate: 0.5 }]);
    expect(comparison.improvements.map((row) => row.id)).toEqual(['b']);
    expect(comparison.added).toEqual(['c']);
    expect(comparison.removed).toEqual(['d']);
    expect(compareToBaseline(report({ a: 0.5 }), report({ a: 1 }), { tolerance: 0.5 }).regressions).toEqual([]);
  });

  it('renders a self-contained page with the chart and the baseline', () => {
    const current = report({ 'a<b': 0.5 });
    const baseline = report({ 'a<b': 1 });
    const html = renderHtmlReport(current, { baseline, comparison: compareToBaseline(current, baseline) });
    expect(html).toContain('<svg id="pass-rates"');
    expect(html).toContain('data-case="a&#60;b"');
    expect(html).toContain('class="regressed"');
    expect(html).not.toMatch(/(src|href)="http/);
  });
});

describe('promoteConversation', () => {
  it('adds a case to a YAML suite (keeping its comments) that passes its replay', async () => {
    const path = await suiteFile(
      'promoted.yaml',
      '# my evals\nname: promoted\ncases:\n  - id: first\n    task: t\n    scorers: [no-errors]\n',
    );
    const added = await promoteConversation({ location: recorded, suitePath: path, id: 'notes' });
    expect(added.scorers.map((scorer) => scorer.type)).toEqual(['no-errors', 'trajectory', 'final-answer']);
    const text = await readFile(path, 'utf8');
    expect(text).toContain('# my evals');
    const suite = await loadSuite(path);
    expect(suite.cases.map((entry) => entry.id)).toEqual(['first', 'notes']);
    const only = { ...suite, cases: suite.cases.filter((entry) => entry.id === 'notes') };
    const result = await runEvalSuite(only, { agent: (llm) => evalAgent(llm) });
    expect(result.cases[0]).toMatchObject({ mode: 'replay', passed: 1 });
    const again = await promoteConversation({ location: recorded, suitePath: path, id: 'notes' }).catch(
      (e: unknown) => e,
    );
    expect(invalid(again).message).toContain('already has a case with this id');
  });

  it('creates a JSON suite that does not exist yet', async () => {
    const path = join(root, 'new-suite.json');
    const added = await promoteConversation({ location: recorded, suitePath: path });
    expect(added.id).toMatch(/^conversation-[0-9a-f]{8}$/);
    const suite = await loadSuite(path);
    expect(suite.name).toBe('new-suite');
    expect(suite.cases[0]?.conversation).toMatch(/^\.\/conversations\//);
  });
});

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { evalReportSchema } from '@x/agent';
import { type ScriptedReply, type ScriptedRequestBody, startScriptedLLMServer } from '@x/agent/testing';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

/** Debian's chromium (never a downloaded browser); a missing browser is a failure with the fix, not a skip. */
const CHROMIUM = process.env.X_CHROMIUM_PATH ?? '/usr/bin/chromium';
const LONG = { timeoutMs: 300_000 };

const home = tempDir();
const env = { X_HOME: home.path };
let location: string;
let browser: Browser | undefined;

beforeAll(async () => {
  // A real recording: the demo task on the offline model, through the terminal and the file editor.
  const demo = await runCli(['run', '--demo'], { env, ...LONG });
  expect(demo.code).toBe(0);
  const conversations = join(home.path, 'conversations');
  location = join(conversations, readdirSync(conversations)[0]!);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  home.remove();
});

describe('x eval on a promoted recording, against a saved baseline', () => {
  it('passes, saves the baseline, then exits 1 with the divergence once the agent changed', async () => {
    const suite = join(home.path, 'evals.yaml');
    const promoted = await runCli(['eval', 'promote', location, '--suite', suite, '--id', 'demo'], { env, ...LONG });
    expect(promoted.stderr).toBe('');
    expect(promoted.stdout).toContain('added case demo to');
    expect(promoted.code).toBe(0);

    const baseline = join(home.path, 'base.json');
    const saved = await runCli(['eval', suite, '--baseline', baseline, '--save-baseline'], { env, ...LONG });
    expect(saved.stdout).toMatch(/demo\s+replay\s+1\/1\s+100%/);
    expect(saved.code).toBe(0);
    expect(evalReportSchema.parse(JSON.parse(readFileSync(baseline, 'utf8'))).cases[0]?.passRate).toBe(1);

    const same = await runCli(['eval', suite, '--baseline', baseline], { env, ...LONG });
    expect(same.stdout).toContain('no regression against');
    expect(same.code).toBe(0);

    // As if the agent's system prompt had changed since the recording: edit the recorded one.
    const events = join(location, 'events');
    const first = readdirSync(events).find((name) => name.startsWith('event-00000-'))!;
    const recorded = JSON.parse(readFileSync(join(events, first), 'utf8')) as { system_prompt: { text: string } };
    recorded.system_prompt.text = `An older system prompt.\n${recorded.system_prompt.text}`;
    writeFileSync(join(events, first), JSON.stringify(recorded));

    const json = join(home.path, 'report.json');
    const html = join(home.path, 'report.html');
    const regressed = await runCli(['eval', suite, '--baseline', baseline, '--json', json, '--html', html], {
      env,
      ...LONG,
    });
    expect(regressed.code).toBe(1);
    expect(regressed.stdout).toContain('REGRESSED');
    expect(regressed.stdout).toContain('demo: run 1: replay diverged at request 0 (messages[0].content[0].text)');
    expect(regressed.stdout).toContain('1 case(s) regressed against');
    const report = evalReportSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(report.cases[0]?.runs[0]?.divergence?.diff).toContain('An older system prompt.');

    // The HTML report in a real browser: the chart renders, offline, without errors.
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `The eval report test needs chromium at ${CHROMIUM} (apt-get install chromium, or X_CHROMIUM_PATH).`,
      );
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      chromiumSandbox: false,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    await context.route('**/*', (route) => {
      const target = new URL(route.request().url());
      if (target.protocol === 'file:') return route.continue();
      problems.push(`request: ${target.href}`);
      return route.abort();
    });
    await page.goto(pathToFileURL(html).href);
    const chart = await page.waitForSelector('svg#pass-rates g.case[data-case="demo"]');
    const track = await (await chart.$('rect.track'))?.boundingBox();
    const bar = await (await chart.$('rect.bar'))?.boundingBox();
    const tick = await (await chart.$('line.baseline'))?.boundingBox();
    const runs = await chart.$$('rect.run.failed');
    expect(track?.width).toBeGreaterThan(100);
    // Pass rate 0 now: an empty bar; the baseline (100%) tick at the end of the track.
    expect(bar?.width ?? -1).toBe(0);
    expect(tick?.x ?? 0).toBeGreaterThan((track?.x ?? 0) + (track?.width ?? 0) - 5);
    expect(runs).toHaveLength(1);
    expect(await page.textContent('tr[data-case="demo"]')).toContain('regressed');
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('x eval live, against a scripted OpenAI-compatible server', () => {
  it('runs a task N times, reports pass@k and pass^k, and meters the judge', async () => {
    let agentCalls = 0;
    const reply = (body: ScriptedRequestBody): ScriptedReply => {
      const messages = body.messages as { role: string; content: unknown }[];
      if (JSON.stringify(messages[0]?.content).includes('You grade the work of an AI agent')) {
        return {
          content: '{"score": 0.9, "reason": "It wrote the file."}',
          usage: { prompt_tokens: 100, completion_tokens: 10 },
        };
      }
      // Two model calls per run; the second run answers wrongly.
      const run = Math.floor(agentCalls / 2) + 1;
      const turn = agentCalls % 2;
      agentCalls += 1;
      if (turn === 0) {
        return {
          toolCalls: [{ name: 'file_editor', arguments: { command: 'create', path: 'notes.txt', file_text: 'a\n' } }],
        };
      }
      return { toolCalls: [{ name: 'finish', arguments: { message: run === 2 ? 'apple' : 'banana' } }] };
    };
    const server = await startScriptedLLMServer(reply);
    try {
      const suite = join(home.path, 'live.json');
      writeFileSync(
        suite,
        JSON.stringify({
          name: 'live',
          cases: [
            {
              id: 'notes',
              task: 'Write notes.txt, then say banana',
              scorers: [
                'no-errors',
                { type: 'files-within', paths: ['notes.txt'] },
                { type: 'final-answer', pattern: '^banana$' },
                { type: 'trajectory', match: 'exact', tools: ['file_editor', 'finish'] },
                { type: 'llm-judge', rubric: 'Wrote notes.txt and said banana.' },
              ],
            },
          ],
        }),
      );
      const json = join(home.path, 'live-report.json');
      const result = await runCli(['eval', suite, '--runs', '3', '--model', 'gpt-4o', '--json', json], {
        env: { ...env, OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: server.baseURL },
        ...LONG,
      });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toMatch(/notes\s+live\s+2\/3\s+67%\s+100% k=3\s+0%/);
      expect(result.stdout).toContain('notes: run 2: final-answer: final answer "apple" does not match /^banana$/');
      const report = evalReportSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
      expect(report.judge).toMatchObject({ model: 'gpt-4o', calls: 3, promptTokens: 300, completionTokens: 30 });
      expect(report.judge?.costUsd).toBeCloseTo((3 * (100 * 2.5 + 10 * 10)) / 1e6, 9);
      expect(report.cases[0]?.runs.every((run) => run.costUsd > 0)).toBe(true);
      // Each live run is kept in the data directory, so it can be viewed, replayed or promoted.
      const kept = report.cases[0]?.runs[0]?.location ?? '';
      expect(kept.startsWith(join(home.path, 'conversations'))).toBe(true);
      expect(existsSync(join(kept, 'events'))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('refuses a live case without a model, and an invalid suite with the case and field (exit 2)', async () => {
    const suite = join(home.path, 'task.yaml');
    writeFileSync(suite, 'cases:\n  - id: t\n    task: do it\n    scorers: [no-errors]\n');
    const noModel = await runCli(['eval', suite], { env, ...LONG });
    expect(noModel.code).toBe(1);
    expect(noModel.stderr).toContain('No model is configured');

    const bad = join(home.path, 'bad.yaml');
    writeFileSync(
      bad,
      'cases:\n  - id: t\n    task: do it\n    scorers: [no-errors, { type: cost-under, usd: "a lot" }]\n',
    );
    const invalid = await runCli(['eval', bad], { env, ...LONG });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('case t, field scorers.1.usd');
    expect(invalid.stderr).toContain('(invalid_eval_suite)');
  });
});

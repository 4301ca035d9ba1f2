// Evals: a suite of cases, each a task run live (here 3 times, for pass@k and pass^k) and graded by scorers:
// no errors, files written only where allowed, the final answer, the tool-call trajectory and an LLM judge
// (the same model, metered). The report is printed, and written as a self-contained HTML page.
//
//   OPENAI_API_KEY=sk-... node dist/eval-suite.js
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseEvalSuite, renderHtmlReport, resolveLLMFromEnv, runEvalSuite } from '@x/agent';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');

//#region suite
// The same shape as a suite file (`x eval evals.yaml`); loadSuite(path) reads one from YAML or JSON.
const suite = parseEvalSuite({
  name: 'notes',
  cases: [
    {
      id: 'write-notes',
      task: 'Create notes.txt containing the word alpha, then finish with the answer "done".',
      runs: 3,
      scorers: [
        'no-errors',
        { type: 'files-within', paths: ['notes.txt'] },
        { type: 'final-answer', pattern: 'done', flags: 'i' },
        { type: 'trajectory', match: 'in-order', tools: [{ tool: 'file_editor', arguments: { command: 'create' } }] },
        { type: 'llm-judge', rubric: 'The agent created notes.txt with the word alpha and said it was done.' },
      ],
    },
  ],
});
//#endregion suite

//#region run
const report = await runEvalSuite(suite, { llm, judge: llm });
for (const entry of report.cases) {
  console.log(
    `${entry.id}: ${entry.passed}/${entry.runs.length} passed, pass@${entry.k} ${entry.passAtK.toFixed(2)}, pass^${entry.k} ${entry.passHatK.toFixed(2)}`,
  );
  for (const run of entry.runs) {
    const failed = run.scores.filter((score) => !score.passed).map((score) => `${score.scorer}: ${score.detail}`);
    console.log(`  run ${run.run}: ${run.passed ? 'passed' : `failed (${failed.join('; ')})`}`);
  }
}
console.log(`judge: ${report.judge?.calls} calls, $${report.judge?.costUsd.toFixed(6)}`);
const html = join(process.cwd(), 'eval-report.html');
await writeFile(html, renderHtmlReport(report));
console.log(`report: ${html}`);
//#endregion run

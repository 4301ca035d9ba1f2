import { writeFile } from 'node:fs/promises';
import type { CliContext } from '../context.js';
import { resolveDataDir } from '../data-dir.js';
import { NoModelError } from '../errors/no-model-error.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../errors.js';
import { casePassed, evalTable } from '../render/eval-table.js';
import { chooseModel } from '../run/choose-model.js';

export interface EvalOptions {
  runs?: number;
  k?: number;
  json?: string;
  html?: string;
  baseline?: string;
  saveBaseline?: boolean;
  tolerance?: number;
  model?: string;
  provider?: string;
  baseUrl?: string;
  judgeModel?: string;
  /** Seconds one scorer may take on one run (`runEvalSuite`'s `scorerTimeoutSeconds`). */
  scorerTimeout?: number;
  dataDir?: string;
}

/**
 * `x eval <suite>`: runs the suite, prints the table, writes the JSON and HTML reports, saves or compares the
 * baseline. Exit 1 on a regression (with --baseline) or on any failed run (without); 0 otherwise.
 */
export async function evalCommand(context: CliContext, suitePath: string, options: EvalOptions): Promise<number> {
  if (options.saveBaseline === true && options.baseline === undefined) {
    throw new UsageError('--save-baseline needs --baseline <file>: the file to write the baseline to.');
  }
  const agent = await import('@x/agent');
  const { output, env } = context;
  const suite = await agent.loadSuite(suitePath);
  const baseline =
    options.baseline !== undefined && options.saveBaseline !== true
      ? await agent.loadBaseline(options.baseline)
      : undefined;

  const live = suite.cases.some((entry) => entry.task !== undefined);
  const judged = suite.cases.some((entry) => entry.scorers.some((scorer) => scorer.type === 'llm-judge'));
  const choose = (model: string | undefined) =>
    chooseModel(agent, { demo: false, model, baseUrl: options.baseUrl, provider: options.provider, env });
  const model = live || judged ? choose(options.model) : undefined;
  if (live && model?.kind !== 'endpoint') throw new NoModelError();
  const judge = judged ? (options.judgeModel === undefined ? model : choose(options.judgeModel)) : undefined;

  const c = output.colors;
  const report = await agent.runEvalSuite(suite, {
    ...(model?.kind === 'endpoint' ? { llm: model.llm } : {}),
    ...(judge?.kind === 'endpoint' ? { judge: judge.llm } : {}),
    ...(options.runs === undefined ? {} : { runs: options.runs }),
    ...(options.k === undefined ? {} : { k: options.k }),
    ...(options.scorerTimeout === undefined ? {} : { scorerTimeoutSeconds: options.scorerTimeout }),
    persistenceDir: resolveDataDir(options.dataDir, env),
    onRun: (caseId, result) =>
      output.error(output.errorColors.dim(`${caseId} run ${result.run}: ${result.passed ? 'passed' : 'failed'}`)),
  });
  const comparison =
    baseline === undefined ? undefined : agent.compareToBaseline(report, baseline, { tolerance: options.tolerance });

  for (const line of evalTable(report, c, { baseline, comparison })) output.line(line);
  if (options.json !== undefined) await writeFile(options.json, `${JSON.stringify(report, null, 2)}\n`);
  if (options.html !== undefined)
    await writeFile(options.html, agent.renderHtmlReport(report, { baseline, comparison }));
  if (options.saveBaseline === true && options.baseline !== undefined) {
    await writeFile(options.baseline, `${JSON.stringify(report, null, 2)}\n`);
    output.line(c.dim(`baseline saved to ${options.baseline}`));
    return ExitCode.ok;
  }
  if (comparison !== undefined) {
    if (comparison.regressions.length === 0) {
      output.line(c.green(`no regression against ${options.baseline}`));
      return ExitCode.ok;
    }
    output.line(
      c.red(
        `${comparison.regressions.length} case(s) regressed against ${options.baseline}: ${comparison.regressions
          .map((row) => `${row.id} ${Math.round(row.baselinePassRate * 100)}% → ${Math.round(row.passRate * 100)}%`)
          .join(', ')}`,
      ),
    );
    return ExitCode.failure;
  }
  return report.cases.every(casePassed) ? ExitCode.ok : ExitCode.failure;
}

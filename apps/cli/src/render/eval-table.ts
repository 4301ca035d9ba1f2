import type { BaselineComparison, EvalCaseResult, EvalReport } from '@x/agent';
import type { Colors } from './colors.js';

function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** A case passed when it ran and every run passed: a case that never ran did not pass. */
export function casePassed(entry: EvalCaseResult): boolean {
  return entry.runs.length > 0 && entry.runs.every((run) => run.passed);
}

/** Why a case's first failed run failed, in a line. */
function firstFailure(entry: EvalCaseResult): string {
  const run = entry.runs.find((candidate) => !candidate.passed);
  if (run === undefined) return 'no run was made';
  if (run.divergence !== undefined) {
    return `run ${run.run}: replay diverged at request ${run.divergence.requestIndex} (${run.divergence.path})`;
  }
  if (run.error !== undefined) return `run ${run.run}: ${run.error}`;
  const score = run.scores.find((candidate) => !candidate.passed);
  return score === undefined ? `run ${run.run} failed` : `run ${run.run}: ${score.scorer}: ${score.detail}`;
}

/** The table `x eval` prints: one row per case, then why failing cases failed. */
export function evalTable(
  report: EvalReport,
  colors: Colors,
  options: { baseline?: EvalReport | undefined; comparison?: BaselineComparison | undefined } = {},
): string[] {
  const before = new Map((options.baseline?.cases ?? []).map((entry) => [entry.id, entry.passRate]));
  const header = ['case', 'mode', 'passed', 'rate', 'pass@k', 'pass^k', ...(options.baseline ? ['baseline'] : [])];
  const rows = report.cases.map((entry) => [
    entry.id,
    entry.mode,
    `${entry.passed}/${entry.runs.length}`,
    percent(entry.passRate),
    `${percent(entry.passAtK)} k=${entry.k}`,
    percent(entry.passHatK),
    ...(options.baseline ? [before.has(entry.id) ? percent(before.get(entry.id) ?? 0) : 'new'] : []),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  const regressed = new Set(options.comparison?.regressions.map((row) => row.id));
  const lines = [colors.bold(line(header))];
  report.cases.forEach((entry, index) => {
    const text = line(rows[index]!);
    const mark = regressed.has(entry.id) ? ` ${colors.red('REGRESSED')}` : '';
    lines.push(`${casePassed(entry) ? colors.green(text) : colors.yellow(text)}${mark}`);
  });
  const failures = report.cases.filter((entry) => !casePassed(entry));
  if (failures.length > 0) lines.push('');
  for (const entry of failures) lines.push(`${colors.yellow(entry.id)}: ${firstFailure(entry)}`);
  if (report.judge !== undefined) {
    lines.push(
      colors.dim(
        `judge ${report.judge.model}: ${report.judge.calls} call(s), ${report.judge.promptTokens + report.judge.completionTokens} tokens, $${report.judge.costUsd.toFixed(6)}`,
      ),
    );
  }
  return lines;
}

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InvalidEvalBaselineError } from './errors/invalid-eval-baseline-error.js';
import { checkRateOption } from './eval-options.js';
import { type EvalCaseResult, type EvalReport, evalReportSchema } from './eval-report.js';

/** One case's pass rate now and in the baseline. */
export interface CaseComparison {
  id: string;
  baselinePassRate: number;
  passRate: number;
}

/** How a report compares with a baseline report. */
export interface BaselineComparison {
  /** Cases whose pass rate fell by more than the tolerance: the suite regressed when there is one. */
  regressions: CaseComparison[];
  improvements: CaseComparison[];
  unchanged: CaseComparison[];
  /** Cases the baseline does not have (never a regression). */
  added: string[];
  /** Baseline cases this report does not have. */
  removed: string[];
}

/** A case's pass rate; a case that never ran passed nothing, whatever a report built in code claims. */
function passRateOf(entry: EvalCaseResult): number {
  return entry.runs.length === 0 ? 0 : entry.passRate;
}

/**
 * Compares each case's pass rate with the baseline's: lower by more than `tolerance` (default 0) is a
 * regression, higher an improvement. `tolerance` is a pass rate (0 to 1): `InvalidEvalOptionError` otherwise.
 */
export function compareToBaseline(
  report: EvalReport,
  baseline: EvalReport,
  options: { tolerance?: number } = {},
): BaselineComparison {
  checkRateOption('tolerance', options.tolerance);
  const tolerance = options.tolerance ?? 0;
  const before = new Map(baseline.cases.map((entry) => [entry.id, passRateOf(entry)]));
  const comparison: BaselineComparison = { regressions: [], improvements: [], unchanged: [], added: [], removed: [] };
  for (const entry of report.cases) {
    const baselinePassRate = before.get(entry.id);
    if (baselinePassRate === undefined) {
      comparison.added.push(entry.id);
      continue;
    }
    const passRate = passRateOf(entry);
    const row = { id: entry.id, baselinePassRate, passRate };
    if (passRate < baselinePassRate - tolerance - 1e-9) comparison.regressions.push(row);
    else if (passRate > baselinePassRate + 1e-9) comparison.improvements.push(row);
    else comparison.unchanged.push(row);
  }
  const now = new Set(report.cases.map((entry) => entry.id));
  comparison.removed = baseline.cases.filter((entry) => !now.has(entry.id)).map((entry) => entry.id);
  return comparison;
}

/** Reads a baseline (a report `x eval --save-baseline` or `--json` wrote), validated. */
export async function loadBaseline(path: string): Promise<EvalReport> {
  const source = resolve(path);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(source, 'utf8'));
  } catch (cause) {
    throw new InvalidEvalBaselineError(source, `cannot be read as JSON: ${(cause as Error).message}`, { cause });
  }
  const parsed = evalReportSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidEvalBaselineError(
      source,
      `not an eval report: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

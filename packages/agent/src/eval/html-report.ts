import type { BaselineComparison } from './baseline.js';
import type { EvalCaseResult, EvalReport } from './eval-report.js';
import { escapeHtml, passRateChart } from './html-chart.js';

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}
.regressed{color:#b3261e;font-weight:bold}.improved{color:#1e7b34}.axis{font-size:11px;fill:#666}
svg text{font:12px system-ui,sans-serif}details{margin:.5rem 0}pre{background:#f6f6f6;padding:.5rem;overflow:auto}`;

function percent(rate: number): string {
  return `${(rate * 100).toFixed(0)}%`;
}

function status(id: string, comparison: BaselineComparison | undefined): string {
  if (comparison === undefined) return '';
  if (comparison.regressions.some((row) => row.id === id)) return '<span class="regressed">regressed</span>';
  if (comparison.improvements.some((row) => row.id === id)) return '<span class="improved">improved</span>';
  if (comparison.added.includes(id)) return 'new';
  return 'unchanged';
}

function runDetails(entry: EvalCaseResult): string {
  const runs = entry.runs.map((run) => {
    const lines = [
      ...run.scores.map(
        (score) =>
          `<li>${score.passed ? '✔' : '✘'} <b>${escapeHtml(score.scorer)}</b>: ${escapeHtml(score.detail)}</li>`,
      ),
      ...(run.error === undefined ? [] : [`<li>✘ <b>error</b>: ${escapeHtml(run.error)}</li>`]),
      ...(run.divergence === undefined
        ? []
        : [
            `<li>✘ <b>replay diverged</b> at request ${run.divergence.requestIndex}<pre>${escapeHtml(run.divergence.diff)}</pre></li>`,
          ]),
    ];
    const where = run.conversationId === undefined ? '' : ` · conversation ${escapeHtml(run.conversationId)}`;
    return `<p>Run ${run.run}: ${run.passed ? 'passed' : 'failed'} · $${run.costUsd.toFixed(6)} · ${run.durationSeconds.toFixed(1)}s${where}</p><ul>${lines.join('')}</ul>`;
  });
  return `<details><summary>${escapeHtml(entry.id)}</summary>${runs.join('')}</details>`;
}

/**
 * A self-contained HTML page (inline CSS and SVG, no scripts, no external assets) with each case's pass rate,
 * pass@k and pass^k, a chart of pass rates against the baseline and of every run, and each run's scores.
 */
export function renderHtmlReport(
  report: EvalReport,
  options: { baseline?: EvalReport | undefined; comparison?: BaselineComparison | undefined } = {},
): string {
  const before = new Map((options.baseline?.cases ?? []).map((entry) => [entry.id, entry.passRate]));
  const rows = report.cases.map((entry) => {
    const baselineRate = before.get(entry.id);
    return `<tr data-case="${escapeHtml(entry.id)}"><td>${escapeHtml(entry.id)}</td><td>${entry.mode}</td><td>${entry.passed}/${entry.runs.length}</td><td>${percent(entry.passRate)}</td><td>${baselineRate === undefined ? '–' : percent(baselineRate)}</td><td>${percent(entry.passAtK)}</td><td>${percent(entry.passHatK)}</td><td>${status(entry.id, options.comparison)}</td></tr>`;
  });
  const judge =
    report.judge === undefined
      ? ''
      : `<p>Judge ${escapeHtml(report.judge.model)}: ${report.judge.calls} call(s), ${report.judge.promptTokens + report.judge.completionTokens} tokens, $${report.judge.costUsd.toFixed(6)}</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Eval report: ${escapeHtml(report.suite)}</title><style>${STYLE}</style></head>
<body><h1>Eval report: ${escapeHtml(report.suite)}</h1>
<p>${escapeHtml(report.createdAt)}${options.baseline === undefined ? '' : ` · baseline of ${escapeHtml(options.baseline.createdAt)}`}</p>
${passRateChart(report, options.baseline)}
<table><thead><tr><th>case</th><th>mode</th><th>passed</th><th>pass rate</th><th>baseline</th><th>pass@k</th><th>pass^k</th><th>vs baseline</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
${judge}
<h2>Runs</h2>
${report.cases.map(runDetails).join('\n')}
</body></html>
`;
}

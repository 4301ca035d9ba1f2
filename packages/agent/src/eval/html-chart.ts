import type { EvalReport } from './eval-report.js';

const LABEL_WIDTH = 180;
const BAR_WIDTH = 300;
const RUNS_X = LABEL_WIDTH + BAR_WIDTH + 30;
const ROW_HEIGHT = 28;
const RUN_SIZE = 12;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/**
 * The inline SVG chart: per case, a bar of its pass rate with the baseline's as a dark tick, and one square per
 * run (green passed, red failed), so a flaky case shows as a mixed row.
 */
export function passRateChart(report: EvalReport, baseline: EvalReport | undefined): string {
  const before = new Map((baseline?.cases ?? []).map((entry) => [entry.id, entry.passRate]));
  const mostRuns = Math.max(1, ...report.cases.map((entry) => entry.runs.length));
  const width = RUNS_X + mostRuns * (RUN_SIZE + 4) + 10;
  const height = report.cases.length * ROW_HEIGHT + 30;
  const rows = report.cases.map((entry, index) => {
    const y = 24 + index * ROW_HEIGHT;
    const baselineRate = before.get(entry.id);
    const tick =
      baselineRate === undefined
        ? ''
        : `<line class="baseline" data-baseline="${baselineRate}" x1="${LABEL_WIDTH + baselineRate * BAR_WIDTH}" x2="${LABEL_WIDTH + baselineRate * BAR_WIDTH}" y1="${y - 3}" y2="${y + 19}" stroke="#111" stroke-width="3"><title>baseline ${percent(baselineRate)}</title></line>`;
    const runs = entry.runs
      .map(
        (run, position) =>
          `<rect class="run ${run.passed ? 'passed' : 'failed'}" x="${RUNS_X + position * (RUN_SIZE + 4)}" y="${y + 2}" width="${RUN_SIZE}" height="${RUN_SIZE}" fill="${run.passed ? '#2e9b4e' : '#d33a2c'}"><title>run ${run.run}: ${run.passed ? 'passed' : 'failed'}</title></rect>`,
      )
      .join('');
    return `<g class="case" data-case="${escapeHtml(entry.id)}" data-pass-rate="${entry.passRate}">
<text x="${LABEL_WIDTH - 8}" y="${y + 13}" text-anchor="end">${escapeHtml(entry.id)}</text>
<rect class="track" x="${LABEL_WIDTH}" y="${y}" width="${BAR_WIDTH}" height="16" fill="#e6e6e6"/>
<rect class="bar" x="${LABEL_WIDTH}" y="${y}" width="${entry.passRate * BAR_WIDTH}" height="16" fill="#4a7bd0"><title>${percent(entry.passRate)} passed</title></rect>
${tick}${runs}</g>`;
  });
  return `<svg id="pass-rates" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="Pass rate per case against the baseline, and each run">
<text x="${LABEL_WIDTH}" y="14" class="axis">pass rate (tick: baseline)</text><text x="${RUNS_X}" y="14" class="axis">runs</text>
${rows.join('\n')}
</svg>`;
}

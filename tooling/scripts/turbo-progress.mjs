// Runs turbo so that a long run is never silent: turbo's own output is grouped by task (each task's lines
// arrive together when it ends) and read here. A task that succeeded is shown as one progress line; a task
// that failed is shown whole, as `--output-logs=errors-only` would; turbo's own header and summary pass through.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

// biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes turbo may add.
const ansi = /\u001b\[[0-9;]*m/g;
const taskLine = /^(@?[\w.-]+(?:\/[\w.-]+)?):([\w:-]+): ?(.*)$/;
const failureMarkers = /ERROR: command finished with error|ERR_PNPM|ELIFECYCLE|command \(.*\) exited \(\d+\)/;

/** `1m 05s` for 65 000 ms; `12s` under a minute. */
export function formatDuration(ms) {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}

/**
 * Runs `turbo run <args>` from `root`. `onTaskDone({ pkg, task, failed, lines })` is called as each task ends and
 * returns the progress line to print (or nothing); a task whose output shows it failed is printed whole at once.
 * With `quiet`, turbo's own header and summary lines are left out (its error lines are kept).
 * Resolves with turbo's exit code and every task's output (`outputs`, by `pkg#task`) and the ones already
 * printed (`printed`), so the caller can print any other task turbo's summary reports as failed.
 */
export function runTurboWithProgress(args, { root, env, onTaskDone, heartbeat, quiet = false }) {
  const child = spawn(
    'pnpm',
    ['exec', 'turbo', 'run', ...args, '--log-order=grouped', '--output-logs=full', '--no-color'],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let group;
  const outputs = new Map();
  const printed = new Set();
  const flush = () => {
    if (group === undefined) return;
    const { pkg, task, lines } = group;
    group = undefined;
    const id = `${pkg}#${task}`;
    outputs.set(id, [...(outputs.get(id) ?? []), ...lines]);
    const failed = lines.some((line) => failureMarkers.test(line));
    const progress = onTaskDone({ pkg, task, failed, lines });
    if (failed) {
      printTaskOutput(id, lines);
      printed.add(id);
    }
    if (progress) process.stdout.write(`${progress}\n`);
  };
  const onLine = (raw) => {
    const line = raw.replace(ansi, '');
    const match = taskLine.exec(line);
    if (match === null) {
      flush();
      // turbo's own lines (header, summary, a run error); `quiet` keeps only its errors.
      if (line.trim() !== '' && (!quiet || /error|failed/i.test(line))) process.stdout.write(`${line}\n`);
      return;
    }
    const [, pkg, task, text] = match;
    if (group !== undefined && (group.pkg !== pkg || group.task !== task)) flush();
    group ??= { pkg, task, lines: [] };
    group.lines.push(text);
  };
  createInterface({ input: child.stdout }).on('line', onLine);
  createInterface({ input: child.stderr }).on('line', onLine);
  const timer = heartbeat === undefined ? undefined : setInterval(heartbeat.tick, heartbeat.everyMs);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      flush();
      if (timer !== undefined) clearInterval(timer);
      resolve({ code: code ?? 1, outputs, printed });
    });
  });
}

/** Prints a task's output lines with turbo's `pkg:task:` prefix. */
export function printTaskOutput(id, lines) {
  const prefix = id.replace('#', ':');
  for (const line of lines) process.stdout.write(`${prefix}: ${line}\n`);
}

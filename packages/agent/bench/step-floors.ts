// The floors the full-loop benchmark compares with: the same event bytes a run persisted, written by plain Node
// calls under the same durability, in the same kind of fresh process as the loop.
import { closeSync, fdatasyncSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventFileName } from '@x/store';

/**
 * - `writeFile` / `writeFileSync`: one file per event, no fsync (the floor of the store's 'none').
 * - `file-per-event`: one durable file per event (file fsync + directory fsync each): three commits a step.
 * - `file-per-commit`: one durable file per commit x makes (the step's stats update and action together, then
 *   the observation): as many commits as x, each a file fsync + directory fsync.
 * - `physical`: the physical floor of a durable step: its commits appended to one open file, `fdatasync` after each.
 * - `physical-with-work`: the same, with the agent's own work spent before each commit as busy CPU: the memory
 *   loop's mean step time split evenly over the step's commits. The best a serial loop of x's agent could do at
 *   this durability; it also counts what back-to-back fdatasyncs hide (a disk given a gap between them may take
 *   longer per call).
 */
export type FloorKind =
  | 'writeFile'
  | 'writeFileSync'
  | 'file-per-event'
  | 'file-per-commit'
  | 'physical'
  | 'physical-with-work';

export const FLOOR_LABELS: Record<FloorKind, string> = {
  writeFile: 'one fs.writeFile per event',
  writeFileSync: 'one fs.writeFileSync per event',
  'file-per-event': 'one durable file per event (file + directory fsync): 3 commits a step',
  'file-per-commit': 'one durable file per commit, as many commits as x makes',
  physical: 'physical: each commit appended to one file + fdatasync',
  'physical-with-work': "physical + the agent's own work (the memory loop's mean step time, spent between commits)",
};

/** Spins for `ms` milliseconds: the agent's own work, as the `physical-with-work` floor spends it. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** The kinds that end a commit of the loop: x appends a step's stats update with its action, then the observation. */
const COMMIT_ENDS = new Set([
  'ActionEvent',
  'ObservationEvent',
  'AgentErrorEvent',
  'MessageEvent',
  'SystemPromptEvent',
]);

/** Groups a run's events into the commits the loop made. */
export function commitsOf(events: readonly string[]): string[][] {
  const commits: string[][] = [];
  let current: string[] = [];
  for (const json of events) {
    current.push(json);
    const kind = (JSON.parse(json) as { kind?: string }).kind ?? '';
    if (COMMIT_ENDS.has(kind)) {
      commits.push(current);
      current = [];
    }
  }
  if (current.length > 0) commits.push(current);
  return commits;
}

async function durableFile(path: string, directory: string, data: string): Promise<void> {
  const handle = await open(path, 'w');
  await handle.writeFile(data);
  await handle.sync();
  await handle.close();
  const dir = await open(directory, 'r');
  await dir.sync();
  await dir.close();
}

/**
 * Writes `events` as the floor `kind` does and returns the milliseconds it took. `workMsPerStep` is the agent's own
 * work per step, for `physical-with-work` (0 otherwise).
 */
export async function runFloor(kind: FloorKind, events: readonly string[], workMsPerStep = 0): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'x-step-floor-'));
  const eventsDir = join(dir, 'events');
  await mkdir(eventsDir);
  const commits = commitsOf(events);
  const steps = events.filter((json) => (JSON.parse(json) as { kind?: string }).kind === 'ActionEvent').length;
  // The work of the whole run, spread evenly over its commits.
  const workPerCommit = kind === 'physical-with-work' ? (workMsPerStep * steps) / commits.length : 0;
  try {
    const started = performance.now();
    switch (kind) {
      case 'writeFile':
        for (const [index, json] of events.entries())
          await writeFile(join(eventsDir, eventFileName(index, `e${index}`)), json);
        break;
      case 'writeFileSync':
        for (const [index, json] of events.entries())
          writeFileSync(join(eventsDir, eventFileName(index, `e${index}`)), json);
        break;
      case 'file-per-event':
        for (const [index, json] of events.entries())
          await durableFile(join(eventsDir, eventFileName(index, `e${index}`)), eventsDir, json);
        break;
      case 'file-per-commit':
        for (const [index, commit] of commits.entries())
          await durableFile(join(eventsDir, `commit-${index}.json`), eventsDir, commit.join('\n'));
        break;
      case 'physical':
      case 'physical-with-work': {
        const fd = openSync(join(eventsDir, 'segment'), 'a');
        try {
          for (const commit of commits) {
            if (workPerCommit > 0) busy(workPerCommit);
            writeSync(fd, `${commit.join('\n')}\n`);
            fdatasyncSync(fd);
          }
        } finally {
          closeSync(fd);
        }
        break;
      }
    }
    return performance.now() - started;
  } finally {
    await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}

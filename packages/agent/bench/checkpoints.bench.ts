// Workspace checkpoints (`workspaceCheckpoints: true`) on a workspace of FILES files (100 per directory, 1-3 KB
// each) with the conversation on the local store: what one step's checkpoint costs in time and in bytes stored,
// for the first checkpoint (every file read, hashed and stored), a step that changed nothing (one stat per file,
// nothing read or written), a step that changed 10 files, and restoring the first checkpoint (navigate/fork).
// Median of RUNS runs of each step kind; bytes are what the step added under `.x-checkpoints/`.
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalFileStore } from '@x/store';
import { CheckpointStore, restoreWorkspace, snapshotWorkspace } from '../src/checkpoints/index.js';

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? await bytesUnder(path) : (await stat(path)).size;
  }
  return total;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'x-bench-checkpoints-'));
  const workspace = join(root, 'workspace');
  const storeRoot = join(root, 'conversations');
  try {
    for (let index = 0; index < FILES; index++) {
      const dir = join(workspace, `dir-${Math.floor(index / 100)}`);
      if (index % 100 === 0) await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `file-${index}.txt`), `file ${index}\n`.repeat(100 + (index % 200)));
    }
    const objects = new CheckpointStore(createLocalFileStore({ root: storeRoot, durability: 'none' }), 'conv');
    const checkpointsDir = join(storeRoot, 'conv', '.x-checkpoints');
    let previous: Awaited<ReturnType<typeof snapshotWorkspace>> | undefined;
    const step = async () => {
      const before = await bytesUnder(checkpointsDir);
      const started = performance.now();
      const manifest = await snapshotWorkspace(workspace, previous, (sha, content) => objects.putBlob(sha, content));
      const id = await objects.putTree(manifest);
      const ms = performance.now() - started;
      previous = manifest;
      return { id, manifest, ms, bytes: (await bytesUnder(checkpointsDir)) - before };
    };

    const first = await step();
    const rows: [string, number, number][] = [['first checkpoint (all files new)', first.ms, first.bytes]];
    const unchanged = [];
    for (let run = 0; run < RUNS; run++) unchanged.push(await step());
    rows.push(['step with no change', median(unchanged.map((r) => r.ms)), median(unchanged.map((r) => r.bytes))]);
    const changed = [];
    for (let run = 0; run < RUNS; run++) {
      for (let file = 0; file < 10; file++) {
        const index = ((run * 10 + file) * 97) % FILES;
        await writeFile(
          join(workspace, `dir-${Math.floor(index / 100)}`, `file-${index}.txt`),
          `run ${run}\n`.repeat(150),
        );
      }
      changed.push(await step());
    }
    rows.push(['step that changed 10 files', median(changed.map((r) => r.ms)), median(changed.map((r) => r.bytes))]);
    const restores = [];
    for (let run = 0; run < RUNS; run++) {
      const target = run % 2 === 0 ? first : changed.at(-1)!;
      const started = performance.now();
      await restoreWorkspace({
        workspace,
        target: target.manifest,
        objects,
        ...(previous ? { current: previous } : {}),
      });
      restores.push(performance.now() - started);
      previous = target.manifest;
    }
    rows.push([`restore (navigate/fork), ${RUNS * 10} files differ`, median(restores), 0]);

    console.log(
      `Workspace checkpoints: ${FILES} files, median of ${RUNS} (${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)})`,
    );
    console.log(`  ${'step'.padEnd(42)} ${'time'.padStart(10)} ${'bytes stored'.padStart(14)}`);
    for (const [name, ms, bytes] of rows) {
      console.log(
        `  ${name.padEnd(42)} ${`${ms.toFixed(0)} ms`.padStart(10)} ${bytes.toLocaleString('en').padStart(14)}`,
      );
    }
    console.log(`  store after all steps: ${(await bytesUnder(checkpointsDir)).toLocaleString('en')} bytes`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();

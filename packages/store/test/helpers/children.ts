import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const workerPath = fileURLToPath(new URL('../children/append-worker.ts', import.meta.url));
const segmentCrashWorkerPath = fileURLToPath(new URL('../children/segment-crash-worker.ts', import.meta.url));

export interface AppendWorker {
  readonly child: ChildProcess;
  /** `index → id` of every append the child acknowledged so far. */
  readonly acks: Map<number, string>;
  /** Resolves once the child has opened the log. */
  readonly ready: Promise<void>;
  /** Resolves with the exit code (or signal) when the child ends. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  /** Resolves when the child has acknowledged at least `count` appends. */
  acked(count: number): Promise<void>;
}

/** Starts `test/children/append-worker.ts` in its own Node process (through tsx). */
export function startAppendWorker(options: {
  root: string;
  label: string;
  count: number | 'loop';
  durability?: 'fsync' | 'none';
  /** Events per `appendMany` call (default 1: one `append` per event). */
  batch?: number;
  /** The log's layout (default `'files'`); `'segment-batched'`: the segment layout with `eventFiles: 'batched'`. */
  layout?: 'files' | 'segment' | 'segment-batched';
}): AppendWorker {
  return startWorker(workerPath, [
    options.root,
    options.label,
    String(options.count),
    options.durability ?? 'none',
    String(options.batch ?? 1),
    options.layout ?? 'files',
  ]);
}

/** Where `test/children/segment-crash-worker.ts` SIGKILLs itself (see there). */
export type SegmentCrashPoint = 'derive' | 'derived' | 'index';

/**
 * Starts `test/children/segment-crash-worker.ts`: appends `batch` events at a time to a segment log in `root` until
 * it kills itself at `point`, the `at`-th time it gets there.
 */
export function startSegmentCrashWorker(options: {
  root: string;
  point: SegmentCrashPoint;
  at: number;
  batch: number;
}): AppendWorker {
  const { root, point, at, batch } = options;
  return startWorker(segmentCrashWorkerPath, [root, `crash-${point}`, point, String(at), String(batch)]);
}

function startWorker(path: string, args: readonly string[]): AppendWorker {
  const child = spawn(process.execPath, ['--import', 'tsx', path, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const acks = new Map<number, string>();
  const waiters: { count: number; resolve: () => void }[] = [];
  let stderr = '';
  let buffered = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (line === 'ready') markReady();
      const match = /^ack (\d+) (\S+)$/.exec(line);
      if (match) acks.set(Number(match[1]), match[2]!);
    }
    for (const waiter of [...waiters]) {
      if (acks.size >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  let closed = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    child.on('close', (code, signal) => {
      closed = true;
      markReady();
      for (const waiter of waiters.splice(0)) waiter.resolve();
      resolve({ code, signal, stderr });
    });
  });
  // A child that already ended acknowledges nothing more: waiting for it would hang the test instead of failing it.
  const acked = (count: number): Promise<void> =>
    acks.size >= count || closed ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }));
  return { child, acks, ready, exited, acked };
}

// `pnpm bench` must keep working: every workspace package's `bench` script runs here at a tiny size (the
// BENCH_* variables each benchmark reads), against the same real parts as the full run (moto, PostgreSQL,
// chromium), and must exit 0 with its report. Figures are not checked: speed is for `pnpm bench` to show.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

const TINY: Record<string, string> = {
  BENCH_APPENDS: '120',
  BENCH_FSYNC_APPENDS: '10',
  BENCH_S3_APPENDS: '10',
  BENCH_S3_LATENCY_APPENDS: '5',
  BENCH_OPEN_EVENTS: '1500',
  BENCH_EVENTS: '1200',
  BENCH_FILES: '200',
  BENCH_ROUNDS: '1',
  BENCH_RUNS: '1',
  BENCH_STEPS: '20',
  BENCH_WARMUP_STEPS: '5',
  BENCH_VIEWER_EVENTS: '200',
};

/** Workspace packages with a `bench` script, as `pnpm bench` (turbo) runs them. */
function benchmarked(): { name: string; dir: string }[] {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(root, group)).flatMap((entry) => {
      const dir = join(root, group, entry);
      try {
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
          name: string;
          scripts?: Record<string, string>;
        };
        return manifest.scripts?.bench === undefined ? [] : [{ name: manifest.name, dir }];
      } catch {
        return [];
      }
    }),
  );
}

function runBench(dir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('pnpm', ['run', '--silent', 'bench'], {
      cwd: dir,
      env: { ...process.env, ...TINY, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}

const packages = benchmarked();

describe('pnpm bench at a tiny size', () => {
  it('finds the benchmarks of the store, the agent, the events and the server', () => {
    expect(packages.map((entry) => entry.name)).toEqual(
      expect.arrayContaining(['@x/events', '@x/store', '@x/store-postgres', '@x/agent', '@x/server']),
    );
  });

  it.each(packages)(
    '$name: its benchmark runs to the end',
    async ({ name, dir }) => {
      const { code, output } = await runBench(dir);
      expect(code, output.slice(-4000)).toBe(0);
      expect(output).toMatch(/\d/);
      // The peer benchmark (bench/peers.bench.ts): both sides ran on both Node lines and printed their ratios.
      if (name === '@x/agent') expect(output.match(/^\| 10 \| .* \| \d+\.\d\d× \|/gm)).toHaveLength(2);
    },
    600_000,
  );
});

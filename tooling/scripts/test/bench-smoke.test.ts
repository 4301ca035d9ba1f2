// `pnpm bench` must keep working: every workspace package's `bench` script runs here at a tiny size (the
// BENCH_* variables each benchmark reads), against the same real parts as the full run (moto, PostgreSQL,
// chromium), and must exit 0 with its report. Figures are not checked: speed is for `pnpm bench` to show.
// Benchmarks run outside vitest, so each goes through the bench-home preload, which keeps it out of the
// real HOME (and its ~/.x): every run is given a HOME of its own here, which must be left as it was.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const benchHome = join(root, 'tooling', 'vitest-preset', 'bench-home.js');
const GUARD = '--import ../../tooling/vitest-preset/bench-home.js';

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
  BENCH_LISTING_CONVERSATIONS: '200',
};

/** Workspace packages with a `bench` script, as `pnpm bench` (turbo) runs them. */
function benchmarked(): { name: string; dir: string; script: string }[] {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(root, group)).flatMap((entry) => {
      const dir = join(root, group, entry);
      try {
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
          name: string;
          scripts?: Record<string, string>;
        };
        const script = manifest.scripts?.bench;
        return script === undefined ? [] : [{ name: manifest.name, dir, script }];
      } catch {
        return [];
      }
    }),
  );
}

/** The environment of a run whose HOME (and X_HOME) is `home`, as a developer's shell would have it. */
function withHome(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, X_HOME: join(home, '.x') };
  for (const name of ['X_TEST_HOME', 'X_TEST_HOME_OWNER', 'X_BENCH_HOME']) delete env[name];
  return env;
}

function run(command: string, args: string[], dir: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(command, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

function runBench(dir: string, home: string): Promise<{ code: number | null; output: string }> {
  const env = { ...withHome(home), ...TINY, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
  return run('pnpm', ['run', '--silent', 'bench'], dir, env);
}

/** Everything under `dir`, relative to it. */
function contents(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

const packages = benchmarked();

describe('pnpm bench at a tiny size', () => {
  it('finds the benchmarks of the store, the agent, the events and the server', () => {
    expect(packages.map((entry) => entry.name)).toEqual(
      expect.arrayContaining(['@x/events', '@x/store', '@x/store-postgres', '@x/agent', '@x/server']),
    );
  });

  it('runs every benchmark command through the bench-home preload', () => {
    for (const { name, script } of packages) {
      const commands = script.split('&&').filter((command) => /\b(tsx|node)\b/.test(command));
      expect(commands.length, name).toBeGreaterThan(0);
      for (const command of commands) expect(command, `${name}: ${command.trim()}`).toContain(GUARD);
    }
  });

  it('the bench-home preload gives a benchmark a temporary home of its own and removes it at exit', async () => {
    const given = mkdtempSync(join(tmpdir(), 'x-bench-given-home-'));
    const probe = join(mkdtempSync(join(tmpdir(), 'x-bench-probe-')), 'probe.mjs');
    try {
      writeFileSync(
        probe,
        [
          "import { mkdirSync, writeFileSync } from 'node:fs';",
          "import { homedir } from 'node:os';",
          "import { join } from 'node:path';",
          "mkdirSync(join(homedir(), '.x', 'conversations'), { recursive: true });",
          "writeFileSync(join(process.env.X_HOME, 'written'), 'x');",
          'console.log(JSON.stringify({ home: homedir(), xHome: process.env.X_HOME }));',
        ].join('\n'),
      );
      const { code, output } = await run(process.execPath, ['--import', benchHome, probe], root, withHome(given));
      expect(code, output).toBe(0);
      const seen = JSON.parse(output.trim()) as { home: string; xHome: string };
      expect(seen.home).not.toBe(given);
      expect(seen.xHome).toBe(join(seen.home, '.x'));
      expect(contents(given)).toEqual([]);
      expect(existsSync(seen.home)).toBe(false);
    } finally {
      rmSync(given, { recursive: true, force: true });
      rmSync(join(probe, '..'), { recursive: true, force: true });
    }
  });

  it.each(packages)(
    '$name: its benchmark runs to the end and leaves the HOME it was given as it was',
    async ({ name, dir }) => {
      const home = mkdtempSync(join(tmpdir(), 'x-bench-given-home-'));
      try {
        const { code, output } = await runBench(dir, home);
        expect(code, output.slice(-4000)).toBe(0);
        expect(output).toMatch(/\d/);
        // The peer benchmark (bench/peers.bench.ts): both sides ran on both Node lines and printed their ratios.
        if (name === '@x/agent') expect(output.match(/^\| 10 \| .* \| \d+\.\d\d× \|/gm)).toHaveLength(2);
        expect(contents(home)).toEqual([]);
      } finally {
        rmSync(home, { recursive: true, force: true, maxRetries: 5 });
      }
    },
    600_000,
  );
});

// `pnpm start`: the project's main job on a fresh machine. Builds every package (showing each as it is built),
// then runs an agent conversation end to end on the built-in offline model through the `x` CLI, printing its
// events and where they were persisted.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packagesWithScript } from './summary.mjs';
import { formatDuration, runTurboWithProgress } from './turbo-progress.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const started = Date.now();
const total = packagesWithScript(root, 'build').length;
let built = 0;
console.log('Building the packages (the first build takes a minute or two)…');
const build = await runTurboWithProgress(['build'], {
  root,
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
  onTaskDone: ({ pkg, failed, lines }) => {
    if (failed) return `  ✘ ${pkg} failed to build`;
    built += 1;
    const cached = lines.some((line) => line.includes('cache hit'));
    return `  ✔ ${pkg}${cached ? ' (cached)' : ''} [${built}/${total}]`;
  },
  quiet: true,
});
if (build.code !== 0) {
  console.error('The build failed (output above).');
  process.exit(build.code);
}
console.log(`Built in ${formatDuration(Date.now() - started)}.\n`);

const cli = `${root}apps/cli/dist/bin.js`;
if (!existsSync(cli)) {
  console.error(`The CLI is not built (${cli} is missing). Run \`pnpm install\` and \`pnpm build\` first.`);
  process.exit(1);
}
// The root package's `x` script runs this same CLI from the clone, so the commands it suggests work as printed.
const env = { ...process.env, X_COMMAND_NAME: process.env.X_COMMAND_NAME ?? 'pnpm x' };
// The demo's terminal runs in the agent's bubblewrap sandbox. Without bwrap the run would be refused: say what
// to do before starting it (installing a system package is the user's call, and so is going without a sandbox).
const unsandboxed = process.argv.slice(2).includes('--unsandboxed');
if (!unsandboxed && spawnSync('bwrap', ['--version'], { stdio: 'ignore' }).status !== 0) {
  console.error(
    'The agent runs every command in a bubblewrap sandbox, and `bwrap` is not installed here.\n' +
      '  Install it (Debian/Ubuntu): bash tooling/scripts/ensure-bubblewrap.sh   then run `pnpm start` again;\n' +
      "  or run the demo without a sandbox, with your user's authority: pnpm start --unsandboxed",
  );
  process.exit(1);
}
const result = spawnSync(process.execPath, [cli, 'run', '--demo', ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);

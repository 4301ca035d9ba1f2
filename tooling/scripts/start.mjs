// `pnpm start`: the project's main job on a fresh machine. Runs an agent conversation end to
// end on the built-in offline model through the `x` CLI, printing its events and where they
// were persisted.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = `${root}apps/cli/dist/bin.js`;
if (!existsSync(cli)) {
  console.error(`The CLI is not built (${cli} is missing). Run \`pnpm install\` and \`pnpm build\` first.`);
  process.exit(1);
}
// The root package's `x` script runs this same CLI from the clone, so the commands it suggests work as printed.
const env = { ...process.env, X_COMMAND_NAME: process.env.X_COMMAND_NAME ?? 'pnpm x' };
const result = spawnSync(process.execPath, [cli, 'run', '--demo', ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);

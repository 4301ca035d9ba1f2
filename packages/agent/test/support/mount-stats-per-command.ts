// Run by test/sandbox-mount-stats.test.ts inside `unshare -Urm` (TMPDIR is `<base>/tmp`): a sandbox that mounts all
// of `/` runs commands while mounts are added between them, counting the identity stats (`identityStat`) each
// command costs, and lists the private root through a bind of the temporary directory made between commands over a
// mount point it had checked.
// Prints one JSON line.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import { processPrivateDirectory, sandboxPrivateRoot } from '../../src/sandbox/internal/private-directory.js';
import { identityStat } from '../../src/sandbox/internal/same-directory.js';
import { runSandboxed } from '../../src/sandbox/run-sandboxed.js';

const [base = '', added = '0'] = process.argv.slice(2);
const root = sandboxPrivateRoot();
const name = root.slice(join(base, 'tmp').length + 1);
// Something of this process's own in the root, for a command to see where it is not hidden.
processPrivateDirectory();

let stats = 0;
const stat = identityStat.stat;
identityStat.stat = (path) => {
  stats += 1;
  return stat(path);
};

const quiet = join(base, 'quiet');
mkdirSync(quiet);
const sandbox = await createSandbox({ policy: { readablePaths: ['/'] }, workspace: quiet });
const environment = { PATH: '/usr/bin:/bin' };
/** Runs `command` in the sandbox; what it printed and how many identity stats it cost the host. */
async function run(command: string, args: string[] = []) {
  const before = stats;
  const result = await runSandboxed(sandbox, { command, args, cwd: quiet, env: environment });
  return { exitCode: result.exitCode, stdout: result.stdout, stats: stats - before };
}
const mount = (...args: string[]) => {
  const done = spawnSync('mount', args, { encoding: 'utf8' });
  if (done.status !== 0) throw new Error(`mount ${args.join(' ')}: ${done.stderr}`);
};

const first = await run('/bin/true');
const second = await run('/bin/true');
for (let index = 0; index < Number(added); index += 1) {
  mkdirSync(join(base, 'more', String(index)), { recursive: true });
  mount('-t', 'tmpfs', 'tmpfs', join(base, 'more', String(index)));
}
const afterMounts = await run('/bin/true');
const again = await run('/bin/true');
// Over a mount point the earlier commands checked (it showed nothing then): the path is the same, what it shows is not.
const late = join(base, 'more', '0');
mount('--bind', join(base, 'tmp'), late);
const listedLate = await run('/bin/ls', ['-A', join(late, name)]);
const listedLateAgain = await run('/bin/ls', ['-A', join(late, name)]);
await sandbox.dispose();
console.log(JSON.stringify({ first, second, afterMounts, again, listedLate, listedLateAgain }));

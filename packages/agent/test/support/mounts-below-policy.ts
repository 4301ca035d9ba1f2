// Run by test/sandbox-mounts-below.test.ts inside `unshare -Urm`, where TMPDIR is `<base>/tmp` and these bind mounts
// were made below paths a policy mounts: `<base>/workspace/up` shows `<base>` (above the temporary directory),
// `<base>/readable/t` shows `<base>/tmp` (the private root's parent), `<base>/workspace-2/data` shows the store
// (`<base>/store`). What the sandbox and its checks make of them; prints one JSON line.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import { processPrivateDirectory, sandboxPrivateRoot } from '../../src/sandbox/internal/private-directory.js';
import { runSandboxed } from '../../src/sandbox/run-sandboxed.js';
import { sandboxPolicySchema } from '../../src/sandbox/sandbox-policy.js';
import { assertStoreOutsideSandbox } from '../../src/sandboxing/store-outside-sandbox.js';

const [base = ''] = process.argv.slice(2);
const refusal = (run: () => Promise<unknown>): Promise<string | undefined> =>
  run().then(
    () => undefined,
    (error: Error) => `${error.name}: ${error.message}`,
  );
const root = sandboxPrivateRoot();
const name = root.slice(join(base, 'tmp').length + 1);
// Something of this process's own in the root, for a command to see where it is not hidden.
const ownName = processPrivateDirectory().slice(root.length + 1);

const writableHolder = await refusal(() => createSandbox({ policy: {}, workspace: join(base, 'workspace') }));

const quiet = join(base, 'quiet');
mkdirSync(quiet);
const sandbox = await createSandbox({ policy: { readablePaths: [join(base, 'readable')] }, workspace: quiet });
const listed = await runSandboxed(sandbox, {
  command: '/bin/ls',
  args: ['-A', join(base, 'readable', 't', name)],
  cwd: quiet,
  env: { PATH: '/usr/bin:/bin' },
});
const storeSeen = await runSandboxed(sandbox, {
  command: '/bin/ls',
  args: ['-A', join(base, 'readable', 't')],
  cwd: quiet,
  env: { PATH: '/usr/bin:/bin' },
});
await sandbox.dispose();

// Mounted after the sandbox was made, before its command: seen at the command, not only when it was made.
const late = join(base, 'late');
mkdirSync(join(late, 't'), { recursive: true });
mkdirSync(join(late, 'up'));
const lateSandbox = await createSandbox({ policy: { readablePaths: [join(late, 't')] }, workspace: quiet });
const lateWritable = await createSandbox({ policy: { writablePaths: [late] }, workspace: quiet });
spawnSync('mount', ['--bind', join(base, 'tmp'), join(late, 't')]);
spawnSync('mount', ['--bind', base, join(late, 'up')]);
const listedLate = await runSandboxed(lateSandbox, {
  command: '/bin/ls',
  args: ['-A', join(late, 't', name)],
  cwd: quiet,
  env: { PATH: '/usr/bin:/bin' },
});
const lateHolder = await refusal(() =>
  runSandboxed(lateWritable, { command: '/bin/true', args: [], cwd: quiet, env: { PATH: '/usr/bin:/bin' } }),
);
await lateSandbox.dispose();
await lateWritable.dispose();

const storeBelowWorkspace = await refusal(() =>
  assertStoreOutsideSandbox({
    policy: sandboxPolicySchema.parse({}),
    workspace: join(base, 'workspace-2'),
    storeRoot: join(base, 'store'),
    conversationDirectory: 'conversation-1',
  }),
);
const storeBelowReadable = await refusal(() =>
  assertStoreOutsideSandbox({
    policy: sandboxPolicySchema.parse({ readablePaths: [join(base, 'workspace-2')] }),
    workspace: quiet,
    storeRoot: join(base, 'store'),
    conversationDirectory: 'conversation-1',
  }),
);
console.log(
  JSON.stringify({
    ownName,
    writableHolder,
    listedRoot: { exitCode: listed.exitCode, stdout: listed.stdout, stderr: listed.stderr },
    listedTmp: storeSeen.stdout.split('\n').filter((entry) => entry !== ''),
    listedLate: { exitCode: listedLate.exitCode, stdout: listedLate.stdout, stderr: listedLate.stderr },
    lateHolder,
    storeBelowWorkspace,
    storeBelowReadable,
  }),
);

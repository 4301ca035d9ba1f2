// Run by test/sandbox-private-root-bind-mount.test.ts inside `unshare -Urm`, where TMPDIR (`<base>/tmp`) is also
// visible at `<base>/alias` and `<base>` at `<base2>` by bind mounts: what a sandbox shows of the private root
// through those second paths, and what the policy check says of them. Prints one JSON line.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import {
  checkPolicyAroundPrivateRoot,
  privateRootHiddenIn,
  processPrivateDirectory,
  sandboxPrivateRoot,
} from '../../src/sandbox/internal/private-directory.js';
import { runSandboxed } from '../../src/sandbox/run-sandboxed.js';
import { sandboxPolicySchema } from '../../src/sandbox/sandbox-policy.js';
import { assertStoreOutsideSandbox } from '../../src/sandboxing/store-outside-sandbox.js';

const [base = '', base2 = ''] = process.argv.slice(2);
const tmp = join(base, 'tmp');
const alias = join(base, 'alias');
const root = sandboxPrivateRoot();
const name = root.slice(tmp.length + 1);
const own = processPrivateDirectory();
const ownName = own.slice(root.length + 1);
const refusal = (paths: { writable: string[]; readable: string[] }): string | undefined => {
  try {
    checkPolicyAroundPrivateRoot(paths);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};
const workspace = join(base, 'workspace');
mkdirSync(workspace);
const sandbox = await createSandbox({ policy: { readablePaths: [alias] }, workspace });
const listed = await runSandboxed(sandbox, {
  command: '/bin/ls',
  args: ['-A', join(alias, name)],
  cwd: workspace,
  env: { PATH: '/usr/bin:/bin' },
});
await sandbox.dispose();
// A conversation store in the temporary directory, one conversation in it: reached through the alias.
const store = join(tmp, 'store');
mkdirSync(join(store, 'conversation-1'), { recursive: true });
const storeRefusal = async (policy: { readablePaths?: string[]; writablePaths?: string[] }, inWorkspace = workspace) =>
  assertStoreOutsideSandbox({
    policy: sandboxPolicySchema.parse(policy),
    workspace: inWorkspace,
    storeRoot: store,
    conversationDirectory: 'conversation-1',
  }).then(
    () => undefined,
    (error: Error) => error.message,
  );
const storeHeldThroughAlias = await storeRefusal({ readablePaths: [alias] });
const conversationThroughAlias = await storeRefusal({}, join(alias, 'store', 'conversation-1'));
const besideStore = await storeRefusal({ readablePaths: [join(alias, name)] });
console.log(
  JSON.stringify({
    root,
    hidden: privateRootHiddenIn([alias, join(base2, 'tmp')]),
    expectedHidden: [join(alias, name), join(base2, 'tmp', name)],
    insideThroughAlias: refusal({ writable: [], readable: [join(alias, name, ownName)] }),
    rootThroughAlias: refusal({ writable: [], readable: [join(alias, name)] }),
    parentThroughAlias: refusal({ writable: [alias], readable: [] }),
    holderThroughAlias: refusal({ writable: [base2], readable: [] }),
    listedInside: { exitCode: listed.exitCode, stdout: listed.stdout, stderr: listed.stderr },
    ownName,
    storeHeldThroughAlias,
    conversationThroughAlias,
    besideStore,
  }),
);

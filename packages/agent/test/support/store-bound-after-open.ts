// Run by test/sandbox-store-bound-after-open.test.ts inside `unshare -Urm` (root of its own user and mount namespace,
// so it can mount): a conversation's sandbox with `<base>/readable` readable opens and lists `<base>/readable/peek`;
// then another conversation's directory of the store `<base>/store` is bind-mounted there, and the same sandbox is
// asked to list its events; then the bind is undone and it lists again. Prints one JSON line.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { runSandboxed } from '../../src/sandbox/run-sandboxed.js';
import { sandboxPolicySchema } from '../../src/sandbox/sandbox-policy.js';
import { openBubblewrapSandbox } from '../../src/sandboxing/bubblewrap-opener.js';
import { ConversationSandbox } from '../../src/sandboxing/conversation-sandbox.js';
import { assertStoreOutsideSandbox } from '../../src/sandboxing/store-outside-sandbox.js';

const [base = ''] = process.argv.slice(2);
const workspace = join(base, 'quiet');
const peek = join(base, 'readable', 'peek');

const conversation = new ConversationSandbox({
  policy: sandboxPolicySchema.parse({ readablePaths: [join(base, 'readable')] }),
  workspace,
  open: openBubblewrapSandbox,
  guard: (opened, openedWorkspace) =>
    assertStoreOutsideSandbox({
      policy: opened,
      workspace: openedWorkspace,
      storeRoot: join(base, 'store'),
      conversationDirectory: 'conversation-1',
    }),
});

/** `ls` of `path` in the conversation's sandbox: the listing, or the refusal. */
async function list(path: string): Promise<string> {
  try {
    const sandbox = await conversation.get();
    const result = await runSandboxed(sandbox, {
      command: '/bin/ls',
      args: [path],
      cwd: workspace,
      env: { PATH: '/usr/bin:/bin' },
    });
    return `listed: ${result.stdout.trim()}`;
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

const beforeBind = await list(peek);
execFileSync('mount', ['--bind', join(base, 'store', 'conversation-2'), peek]);
const afterBind = await list(join(peek, 'events'));
execFileSync('umount', [peek]);
const afterUnbind = await list(peek);
await conversation.dispose();
console.log(JSON.stringify({ beforeBind, afterBind, afterUnbind }));

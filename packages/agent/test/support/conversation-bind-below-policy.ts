// Run by test/sandbox-store-conversation-bind.test.ts inside `unshare -Urm`, where one conversation's directory of the
// store `<base>/store` is bind-mounted below paths a policy mounts: `<base>/readable/peek` shows another conversation
// (`conversation-2`), `<base>/workspace/mine` this one (`conversation-1`), `<base>/readable/fork` a directory of the
// store that is no conversation's. What a real sandbox shows there, and what the conversation's sandbox makes of it;
// prints one JSON line.
import { join } from 'node:path';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import { runSandboxed } from '../../src/sandbox/run-sandboxed.js';
import { type SandboxPolicyInput, sandboxPolicySchema } from '../../src/sandbox/sandbox-policy.js';
import { openBubblewrapSandbox } from '../../src/sandboxing/bubblewrap-opener.js';
import { ConversationSandbox } from '../../src/sandboxing/conversation-sandbox.js';
import { assertStoreOutsideSandbox } from '../../src/sandboxing/store-outside-sandbox.js';

const [base = ''] = process.argv.slice(2);
const quiet = join(base, 'quiet');
const environment = { PATH: '/usr/bin:/bin' };

/** The conversation's sandbox of `policy` in `workspace`, opened and asked to run `ls`: its refusal, or the listing. */
async function openAndList(policy: SandboxPolicyInput, workspace: string, listed: string): Promise<string> {
  const sandbox = new ConversationSandbox({
    policy: sandboxPolicySchema.parse(policy),
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
  try {
    const opened = await sandbox.get();
    const result = await runSandboxed(opened, { command: '/bin/ls', args: [listed], cwd: workspace, env: environment });
    return `listed: ${result.stdout.trim()}`;
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  } finally {
    await sandbox.dispose();
  }
}

// What a sandbox of that policy shows, opened without the conversation's guard: the other conversation's events.
const bare = await createSandbox({ policy: { readablePaths: [join(base, 'readable')] }, workspace: quiet });
const shownUnguarded = await runSandboxed(bare, {
  command: '/bin/ls',
  args: [join(base, 'readable', 'peek', 'events')],
  cwd: quiet,
  env: environment,
});
await bare.dispose();

console.log(
  JSON.stringify({
    shownUnguarded: shownUnguarded.stdout.trim(),
    belowReadable: await openAndList(
      { readablePaths: [join(base, 'readable')] },
      quiet,
      join(base, 'readable', 'peek', 'events'),
    ),
    readableAtMount: await openAndList(
      { readablePaths: [join(base, 'readable', 'peek', 'events')] },
      quiet,
      join(base, 'readable', 'peek', 'events'),
    ),
    belowWorkspace: await openAndList({}, join(base, 'workspace'), join(base, 'workspace', 'mine')),
    besideConversations: await openAndList(
      { readablePaths: [join(base, 'readable', 'fork')] },
      quiet,
      join(base, 'readable', 'fork'),
    ),
  }),
);

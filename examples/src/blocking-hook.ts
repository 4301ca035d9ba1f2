// A PreToolUse hook that blocks a dangerous command before it runs. Hooks use the reference's hook
// configuration shape (`.openhands/hooks.json`, also Claude Code's): a shell command reads the event as JSON
// on stdin; exit code 2 blocks, and its stderr is the reason the model is told.
//
//   OPENAI_API_KEY=sk-... node dist/blocking-hook.js
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, Conversation, defaultTools, resolveLLMFromEnv } from '@x/agent';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');

// A throwaway workspace with a build directory the model will be asked to delete.
const workspace = await mkdtemp(join(tmpdir(), 'x-hook-example-'));
await mkdir(join(workspace, 'build'));
await writeFile(join(workspace, 'build', 'output.txt'), 'precious\n');

//#region hooks
const conversation = await Conversation.create({
  agent: new Agent({ llm, tools: defaultTools() }),
  workspace,
  hooks: {
    PreToolUse: [
      {
        matcher: 'terminal', // the tool name: exact, `a|b`, `/regex/` or `*`
        hooks: [{ command: `grep -q 'rm -rf' && { echo 'rm -rf is not allowed here' >&2; exit 2; }; exit 0` }],
      },
    ],
  },
  onEvent: (event) => {
    if (event.kind === 'HookExecutionEvent')
      console.log('hook:', event.hook_event_type, event.blocked ? 'blocked' : 'ok');
    if (event.kind === 'UserRejectObservation')
      console.log('rejected by', event.rejection_source, event.rejection_reason);
  },
});
//#endregion hooks
await conversation.sendMessage('Delete the build directory with rm -rf build.');
const result = await conversation.run();
console.log('status:', result.status);
console.log('build directory still there:', existsSync(join(workspace, 'build', 'output.txt')));
await conversation.close();

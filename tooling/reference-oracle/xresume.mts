// Resumes every conversation directory under a root with @x/agent (by directory name), and with --run runs one more
// turn, then closes it: checkstate.py then checks the reference can read what was written back.
// Usage (from packages/agent): npx tsx ../../tooling/reference-oracle/xresume.mts <root> --run
import { readdirSync } from 'node:fs';
import { Agent, Conversation, createOfflineLLM } from '../../packages/agent/src/index.ts';
import { createLocalFileStore } from '../../packages/store/src/index.ts';

const root = process.argv[2]!;
const store = createLocalFileStore({ root });
let ok = 0;
for (const name of readdirSync(root).sort()) {
  const agent = new Agent({ llm: createOfflineLLM({ script: [{ content: 'continued' }] }), tools: [] });
  try {
    const conversation = await Conversation.resume(name, { agent, store, sandbox: { mode: 'unsandboxed' } as never });
    if (process.argv.includes('--run')) {
      await conversation.sendMessage('continue please');
      await conversation.run();
    }
    await conversation.close();
    ok++;
  } catch (error) {
    console.log(name, String((error as Error).message ?? error).slice(0, 600));
  }
}
console.log('resumed', ok);

// Resumes every conversation directory under a root with @x/agent (by directory name), and with --run runs one more
// turn, then closes it: checkstate.py then checks the reference can read what was written back. With --tools the
// agent has x's tools of the names base_state.json's agent records (file_editor, task_tracker, glob, grep, terminal)
// and the recorded workspace, as the reference needs to resume it: pending calls then run as the reference runs them
// (continued.py compares the two continuations).
// Usage (from packages/agent): npx tsx ../../tooling/reference-oracle/xresume.mts <root> --run [--tools]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Agent,
  Conversation,
  createFileEditorTool,
  createGlobTool,
  createGrepTool,
  createOfflineLLM,
  createTaskTrackerTool,
  createTerminalTool,
} from '../../packages/agent/src/index.ts';
import { createLocalFileStore } from '../../packages/store/src/index.ts';

const root = process.argv[2]!;
const store = createLocalFileStore({ root });
const makers: Record<string, () => unknown> = {
  file_editor: () => createFileEditorTool(),
  task_tracker: () => createTaskTrackerTool(),
  glob: () => createGlobTool(),
  grep: () => createGrepTool(),
  terminal: () => createTerminalTool(),
};
let ok = 0;
for (const name of readdirSync(root).sort()) {
  const recorded = JSON.parse(readFileSync(join(root, name, 'base_state.json'), 'utf8')) as {
    agent?: { tools?: { name: string }[] };
    workspace?: { working_dir?: string };
  };
  const withTools = process.argv.includes('--tools');
  const tools = withTools ? (recorded.agent?.tools ?? []).flatMap((tool) => makers[tool.name]?.() ?? []) : [];
  const agent = new Agent({ llm: createOfflineLLM({ script: [{ content: 'continued' }] }), tools: tools as never });
  try {
    // As refresume.py resumes it: the recorded workspace, and the reference's per-run limit (its resume replaces the
    // recorded max_iterations with its own argument, 500 by default; x keeps the recorded one unless given one).
    const workspace = withTools ? { workspace: recorded.workspace?.working_dir, maxIterationsPerRun: 500 } : {};
    const conversation = await Conversation.resume(name, {
      agent,
      store,
      sandbox: { mode: 'unsandboxed' } as never,
      ...workspace,
    });
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

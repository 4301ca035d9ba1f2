// The View @x/agent resumes each conversation under a root with (its view checkpoint, if any, and the events after
// it), as JSON lines {dir, view_event_ids}, to compare with refderive.py's: the checkpoint path must give the
// reference's View too. Usage (from packages/agent): npx tsx ../../tooling/reference-oracle/xview.mts <root>
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, Conversation, createOfflineLLM } from '../../packages/agent/src/index.ts';
import { createLocalFileStore } from '../../packages/store/src/index.ts';

const root = process.argv[2]!;
const store = createLocalFileStore({ root });
for (const name of readdirSync(root).sort()) {
  const agent = new Agent({ llm: createOfflineLLM({ script: [] }), tools: [] });
  try {
    const conversation = await Conversation.resume(name, { agent, store, sandbox: { mode: 'unsandboxed' } as never });
    const view = await conversation.view();
    console.log(JSON.stringify({ dir: join(root, name), view_event_ids: view.events.map((event) => event.id) }));
    await conversation.close();
  } catch (error) {
    console.log(
      JSON.stringify({ dir: join(root, name), error: String((error as Error).message ?? error).slice(0, 600) }),
    );
  }
}

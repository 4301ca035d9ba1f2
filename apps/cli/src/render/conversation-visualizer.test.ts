import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, Conversation, createOfflineLLM } from '@x/agent';
import { createMemoryFileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { createConversationVisualizer } from '../index.js';

describe('createConversationVisualizer', () => {
  it("renders a library conversation's events as the CLI does, as an onEvent listener", async () => {
    const workspace = await mkdtemp(join(tmpdir(), 'x-visualizer-'));
    let text = '';
    const visualizer = createConversationVisualizer({ write: (chunk) => (text += chunk), color: false });
    try {
      const llm = createOfflineLLM({
        script: [
          { toolCalls: [{ name: 'think', arguments: { thought: 'weigh the options' } }] },
          { toolCalls: [{ name: 'finish', arguments: { message: 'All done here.' } }] },
        ],
      });
      const conversation = await Conversation.create({
        agent: new Agent({ llm, tools: [] }),
        workspace,
        store: createMemoryFileStore(),
        onEvent: visualizer.onEvent,
      });
      await conversation.sendMessage('decide something');
      await conversation.run();
      visualizer.flush();
      await conversation.close();
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
    expect(text).toContain('decide something');
    expect(text).toContain('weigh the options');
    expect(text).toContain('All done here.');
    // No escape codes with color off.
    expect(text).not.toContain('\u001b[');
  });
});

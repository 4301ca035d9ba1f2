import { createMemoryFileStore } from '@x/store';
import { describe, expect, it, vi } from 'vitest';
import { Agent, Conversation, ConversationClosedError, createOfflineLLM } from '../src/index.js';

const agent = (): Agent =>
  new Agent({
    llm: createOfflineLLM({ script: [{ toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }] }),
    tools: [],
  });

describe('Conversation.close racing other calls', () => {
  it('refuses a run asked for while closing (closing would not wait for it), and closes once for two calls', async () => {
    let sessionEnds = 0;
    const conversation = await Conversation.create({
      agent: agent(),
      store: createMemoryFileStore(),
      hooks: {
        SessionEnd: [
          {
            hooks: [
              async () => {
                sessionEnds += 1;
                return {};
              },
            ],
          },
        ],
      },
    });
    await conversation.sendMessage('hello');
    const logCloses = vi.spyOn(conversation.log, 'close');
    const first = conversation.close();
    const second = conversation.close();
    const run = conversation.run().then(
      () => 'ran',
      (error: unknown) => error,
    );
    await Promise.all([first, second]);
    expect(await run).toBeInstanceOf(ConversationClosedError);
    expect(sessionEnds).toBe(1);
    expect(logCloses).toHaveBeenCalledTimes(1);
    // Nothing ran: no action, no agent message; the session ended once.
    const kinds = (await conversation.log.range(0)).map((event) => event.kind);
    expect(kinds).not.toContain('ActionEvent');
    expect(kinds.filter((kind) => kind === 'MessageEvent')).toHaveLength(1);
  });
});

// A user message sent while the model is answering is after that answer's request: if the answer finishes the
// run, the run must go on to answer the message, not end with it unanswered.
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

describe('a message sent while the finishing answer is on its way', () => {
  it('is answered in the same run', async () => {
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    harness = await startHarness([
      { toolCalls: [{ name: 'finish', arguments: { message: 'All done.' } }], gate },
      { content: 'The answer to the late question.' },
    ]);
    const { conversation, events } = await harness.conversation();
    await conversation.sendMessage('first task');
    const running = conversation.run();
    await harness.server.waitForRequests(1);
    await conversation.sendMessage('a late question');
    openGate();
    const result = await running;

    expect(result.status).toBe('finished');
    expect(harness.server.requests).toHaveLength(2);
    expect(JSON.stringify(harness.server.requests[1]?.messages)).toContain('a late question');
    const replies = events.filter((event) => event.kind === 'MessageEvent' && event.source === 'agent');
    expect(JSON.stringify(replies.at(-1))).toContain('The answer to the late question.');
    await conversation.close();
  });

  it('does not run again when no message came in', async () => {
    harness = await startHarness([{ toolCalls: [{ name: 'finish', arguments: { message: 'All done.' } }] }]);
    const { conversation } = await harness.conversation();
    await conversation.sendMessage('first task');
    expect((await conversation.run()).status).toBe('finished');
    expect(harness.server.requests).toHaveLength(1);
    await conversation.close();
  });
});

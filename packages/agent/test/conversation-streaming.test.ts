import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

describe('token streaming', () => {
  it('publishes StreamingDeltaEvents to listeners while the model streams, and never persists them', async () => {
    harness = await startHarness([{ content: 'Streaming a fairly long reply in several chunks.' }]);
    const published: { event: AnyEvent; index: number | undefined }[] = [];
    const { conversation } = await harness.conversation({
      agent: harness.agent({ stream: true }),
      onEvent: (event, index) => published.push({ event, index }),
    });
    await conversation.sendMessage('talk to me');
    await conversation.run();

    const deltas = published.filter(({ event }) => event.kind === 'StreamingDeltaEvent');
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.every(({ index }) => index === undefined)).toBe(true);
    const streamed = deltas
      .map(({ event }) => (event.kind === 'StreamingDeltaEvent' ? (event.content ?? '') : ''))
      .join('');
    expect(streamed).toBe('Streaming a fairly long reply in several chunks.');
    expect(harness.server.requests[0]?.stream).toBe(true);

    const persisted: string[] = [];
    for await (const event of conversation.events()) persisted.push(event.kind);
    expect(persisted).not.toContain('StreamingDeltaEvent');
    expect(persisted.filter((kind) => kind !== 'ConversationStateUpdateEvent').at(-1)).toBe('MessageEvent');
  });
});

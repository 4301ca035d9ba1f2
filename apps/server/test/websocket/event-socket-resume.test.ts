import { userMessage } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeConversation,
  type FakeSocketServer,
  startFakeSocketServer,
} from '../support/fake-event-socket-host.js';
import { connectRecording, persistedFrames } from '../support/socket-client.js';

const textOf = (frame: Record<string, unknown>) =>
  (frame.llm_message as { content: { text: string }[] }).content[0]!.text;

describe('event sockets: resume by from_index', () => {
  let server: FakeSocketServer;
  let conversation: FakeConversation;
  beforeEach(async () => {
    server = await startFakeSocketServer();
    conversation = await server.addConversation('c1');
  });
  afterEach(() => server.close());

  it('delivers exactly 0..N-1 in order across repeated reconnects while events are being appended', async () => {
    const total = 400;
    const appending = (async () => {
      for (let index = 0; index < total; index++) {
        await conversation.log.append(userMessage(`e${index}`));
        if (index % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    })();

    const received: string[] = [];
    let connections = 0;
    while (received.length < total) {
      connections += 1;
      const client = connectRecording(`${server.wsUrl}/sockets/events/c1?from_index=${received.length}`);
      const wanted = 1 + (connections % 5) * 13;
      await client
        .waitFor((frames) => persistedFrames(frames).length >= Math.min(wanted, total - received.length), 60_000)
        .catch(() => undefined);
      // Cut the connection at an arbitrary point: whatever arrived before the cut counts, nothing after.
      client.ws.terminate();
      await client.closed;
      received.push(...persistedFrames(client.frames).map(textOf));
    }
    await appending;

    expect(connections).toBeGreaterThan(5);
    expect(received).toEqual(Array.from({ length: total }, (_, index) => `e${index}`));
  });

  it('resumes with after_event_id from the last event seen', async () => {
    for (let index = 0; index < 10; index++) await conversation.log.append(userMessage(`e${index}`));
    const lastSeen = conversation.log.idAt(6);
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1?after_event_id=${lastSeen}`);
    await client.waitFor((frames) => persistedFrames(frames).length === 3);
    expect(persistedFrames(client.frames).map(textOf)).toEqual(['e7', 'e8', 'e9']);
    client.ws.close();
  });
});

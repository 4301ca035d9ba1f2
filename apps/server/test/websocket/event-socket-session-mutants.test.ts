import { type AnyEvent, createEvent } from '@x/events';
import type { EventLogLike } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeConversation,
  type FakeSocketServer,
  startFakeSocketServer,
} from '../support/fake-event-socket-host.js';
import { connectRecording } from '../support/socket-client.js';

// What one socket session promises beyond plain replay: published-only events wait until the socket has sent the
// log as it was when they were published, at most `maxPendingPublished` of them wait, a closed socket leaves no
// listener behind, and a log that cannot be read ends the socket with 1011 instead of leaving the client waiting.

let server: FakeSocketServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const message = (text: string) =>
  createEvent('MessageEvent', {
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text }] },
  });
const delta = (content: string) => createEvent('StreamingDeltaEvent', { content });

/** Each frame as a short label: `full_state`, the message text, or the delta content. */
function labels(frames: Record<string, unknown>[]): string[] {
  return frames.map((frame) => {
    if (frame.kind === 'MessageEvent') return (frame.llm_message as { content: { text: string }[] }).content[0]!.text;
    if (frame.kind === 'StreamingDeltaEvent') return String(frame.content);
    return String(frame.key ?? frame.kind);
  });
}

async function appendMessages(conversation: FakeConversation, texts: string[]): Promise<void> {
  for (const text of texts) await conversation.log.append(message(text));
}

describe('event socket session: published-only events', () => {
  it('holds them until the log as it was is sent, keeps at most maxPendingPublished, and sends live ones at once', async () => {
    server = await startFakeSocketServer({ options: { maxPendingPublished: 2 } });
    const conversation = await server.addConversation('c1');
    await appendMessages(conversation, ['m0', 'm1', 'm2']);
    // Published while the socket has sent none of the three events: all three wait, and only two fit.
    conversation.whenSubscribed(() => {
      for (const content of ['d1', 'd2', 'd3']) conversation.publish(delta(content));
    });
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1?resend_mode=all`);
    await client.waitFor((frames) => labels(frames).includes('m2'));
    await appendMessages(conversation, ['m3']);
    await client.waitFor((frames) => labels(frames).includes('m3'));
    conversation.publish(delta('d4'));
    await client.waitFor((frames) => labels(frames).includes('d4'));
    expect(labels(client.frames)).toEqual(['full_state', 'm0', 'm1', 'm2', 'd1', 'd2', 'm3', 'd4']);
    client.ws.close();
  });
});

describe('event socket session: back-pressure', () => {
  it('stops pulling the log for a stalled reader, so its queue stays far under the hard cap, and sends the rest later', async () => {
    server = await startFakeSocketServer({
      // A grace no loaded machine comes near; the hard cap is what an unbounded queue would pass.
      options: { bufferLimitBytes: 64 * 1024, bufferHardCapBytes: 2 * 1024 * 1024, slowClientGraceMs: 600_000 },
    });
    const conversation = await server.addConversation('c1');
    const reader = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await reader.waitFor((frames) => frames.length === 1);
    reader.tcp()?.pause();
    // 300 events of 64 KiB: about 19 MiB, several times what loopback's socket buffers and the hard cap hold.
    const total = 300;
    const big = 'x'.repeat(64 * 1024);
    for (let index = 0; index < total; index++) {
      await conversation.log.append(message(`${index} ${big}`));
      // Lets the session pull and send the event before the next one is appended.
      await new Promise((resolve) => setImmediate(resolve));
    }
    reader.tcp()?.resume();
    await reader.waitFor((frames) => frames.length === 1 + total, 120_000);
    expect(server.logs.filter((record) => record.level === 'warn')).toEqual([]);
    reader.ws.close();
    expect((await reader.closed).code).toBe(1005);
  });
});

describe('event socket session: ending', () => {
  it('stops listening to the conversation once the socket is closed', async () => {
    server = await startFakeSocketServer();
    const conversation = await server.addConversation('c1');
    const first = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    const second = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await first.waitFor((frames) => frames.length === 1);
    await second.waitFor((frames) => frames.length === 1);
    expect(conversation.publishedListeners()).toBe(2);
    first.ws.close();
    await first.closed;
    await expect.poll(() => conversation.publishedListeners()).toBe(1);
    conversation.publish(delta('only the second'));
    await second.waitFor((frames) => labels(frames).includes('only the second'));
    second.ws.close();
    await second.closed;
    await expect.poll(() => conversation.publishedListeners()).toBe(0);
  });

  it('closes with 1011 when reading the log fails part way, after what it could send', async () => {
    server = await startFakeSocketServer();
    const conversation = await server.addConversation('c1');
    await appendMessages(conversation, ['m0', 'm1']);
    const readable = conversation.log;
    // The log as a damaged store would serve it: the first event reads, the next read throws.
    const damaged = new Proxy(readable, {
      get(target, key) {
        if (key === 'subscribe') {
          return async function* (fromIndex: number) {
            yield { index: fromIndex, event: (await target.get(fromIndex)) as AnyEvent };
            throw new Error('segment 0 is unreadable');
          };
        }
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as EventLogLike;
    (conversation as { log: EventLogLike }).log = damaged;
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1?resend_mode=all`);
    expect(await client.closed).toEqual({ code: 1011, reason: 'Reading the event log failed' });
    expect(labels(client.frames)).toEqual(['full_state', 'm0']);
    expect(server.logs.some((record) => record.level === 'error')).toBe(true);
  });
});

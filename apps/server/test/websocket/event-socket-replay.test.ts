import { createEvent, userMessage } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeConversation,
  type FakeSocketServer,
  startFakeSocketServer,
} from '../support/fake-event-socket-host.js';
import { connectRecording, persistedFrames } from '../support/socket-client.js';

const isFullState = (frame: Record<string, unknown>) =>
  frame.kind === 'ConversationStateUpdateEvent' && frame.key === 'full_state';

/** Appends messages "m<from>".."m<to-1>" with increasing timestamps one second apart from 2024-01-01T10:00:00. */
async function appendMessages(conversation: FakeConversation, from: number, to: number): Promise<void> {
  for (let index = from; index < to; index++) {
    const seconds = String(index).padStart(2, '0');
    await conversation.log.append(
      createEvent('MessageEvent', {
        source: 'user',
        timestamp: `2024-01-01T10:00:${seconds}.000000`,
        llm_message: { role: 'user', content: [{ type: 'text', text: `m${index}` }] },
      }),
    );
  }
}

const texts = (frames: Record<string, unknown>[]) =>
  persistedFrames(frames).map((frame) => (frame.llm_message as { content: { text: string }[] }).content[0]!.text);

describe('event sockets: subscribe and replay', () => {
  let server: FakeSocketServer;
  let conversation: FakeConversation;
  beforeEach(async () => {
    server = await startFakeSocketServer();
    conversation = await server.addConversation('c1');
    await appendMessages(conversation, 0, 5);
  });
  afterEach(() => server.close());

  it('sends a full_state snapshot first, then only live events when no replay is asked', async () => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await client.waitFor((frames) => frames.length === 1);
    expect(client.frames[0]).toMatchObject({
      kind: 'ConversationStateUpdateEvent',
      key: 'full_state',
      source: 'environment',
      value: { id: 'c1', execution_status: 'idle', events: 5 },
    });
    await appendMessages(conversation, 5, 7);
    await client.waitFor((frames) => persistedFrames(frames).length === 2);
    expect(texts(client.frames)).toEqual(['m5', 'm6']);
    // The snapshot is published, not persisted.
    expect(conversation.log.length).toBe(7);
    client.ws.close();
  });

  it.each([
    ['resend_mode=all', 'resend_mode=all', ['m0', 'm1', 'm2', 'm3', 'm4']],
    ['resend_all=true (deprecated)', 'resend_all=true', ['m0', 'm1', 'm2', 'm3', 'm4']],
    ['since with a naive timestamp', 'resend_mode=since&after_timestamp=2024-01-01T10:00:03', ['m3', 'm4']],
    ['since between two events', 'resend_mode=since&after_timestamp=2024-01-01T10:00:02.5', ['m3', 'm4']],
    ['since after the last event', 'resend_mode=since&after_timestamp=2030-01-01T00:00:00', []],
    ['since without after_timestamp', 'resend_mode=since', []],
    ['from_index', 'from_index=2', ['m2', 'm3', 'm4']],
    ['from_index at the end', 'from_index=5', []],
    ['from_index wins over resend_mode', 'from_index=4&resend_mode=all', ['m4']],
  ])('replays per %s, then continues live', async (_name, query, expected) => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1?${query}`);
    await client.waitFor((frames) => frames.length >= 1 + expected.length);
    expect(isFullState(client.frames[0]!)).toBe(true);
    await appendMessages(conversation, 5, 6);
    await client.waitFor((frames) => texts(frames).includes('m5'));
    expect(texts(client.frames)).toEqual([...expected, 'm5']);
    client.ws.close();
  });

  it('replays after after_event_id, exclusive', async () => {
    const id = conversation.log.idAt(1);
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1?after_event_id=${id}`);
    await client.waitFor((frames) => persistedFrames(frames).length === 3);
    expect(texts(client.frames)).toEqual(['m2', 'm3', 'm4']);
    client.ws.close();
  });

  it('converts a timezone-aware after_timestamp to local time', async () => {
    const local = new Date(2024, 0, 1, 10, 0, 3);
    const client = connectRecording(
      `${server.wsUrl}/sockets/events/c1?resend_mode=since&after_timestamp=${encodeURIComponent(local.toISOString())}`,
    );
    await client.waitFor((frames) => persistedFrames(frames).length === 2);
    expect(texts(client.frames)).toEqual(['m3', 'm4']);
    client.ws.close();
  });

  it.each([
    ['from_index=-1', 'from_index must be a non-negative integer'],
    ['from_index=abc', 'from_index must be a non-negative integer'],
    ['after_event_id=no-such-event', 'after_event_id names no event of this conversation: no-such-event'],
    ['resend_mode=since&after_timestamp=yesterday', 'after_timestamp is not an ISO datetime'],
    // Validated whatever the mode, as the reference's server validates its query.
    ['resend_mode=all&after_timestamp=yesterday', 'after_timestamp is not an ISO datetime'],
    ['after_timestamp=', 'after_timestamp is not an ISO datetime'],
    ['from_index=0&resend_mode=everything', 'resend_mode must be all or since'],
  ])('closes with 1008 naming the problem for %s', async (query, reason) => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1?${query}`);
    const closed = await client.closed;
    expect(closed.code).toBe(1008);
    expect(closed.reason).toContain(reason);
  });

  it('forwards published-only events live, without counting them in the log', async () => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await client.waitFor((frames) => frames.length === 1);
    conversation.publish(createEvent('StreamingDeltaEvent', { content: 'tok' }));
    await client.waitFor((frames) => frames.length === 2);
    expect(client.frames[1]).toMatchObject({ kind: 'StreamingDeltaEvent', content: 'tok' });
    expect(conversation.log.length).toBe(5);
    client.ws.close();
  });

  it('sends a published event only after the log events that preceded it', async () => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1?resend_mode=all`);
    await client.waitFor((frames) => frames.some(isFullState));
    conversation.publish(createEvent('ConversationStateUpdateEvent', { key: 'full_state', value: { marker: true } }));
    // Published as soon as the append resolves: the socket's pull loop has not sent m5 yet.
    await appendMessages(conversation, 5, 6);
    conversation.publish(createEvent('StreamingDeltaEvent', { content: 'after m5' }));
    await client.waitFor((frames) => frames.some((frame) => frame.kind === 'StreamingDeltaEvent'));
    const order = client.frames.map((frame) =>
      frame.kind === 'MessageEvent'
        ? texts([frame])[0]
        : frame.kind === 'StreamingDeltaEvent'
          ? 'delta'
          : String(frame.key),
    );
    const marker = client.frames.findIndex(
      (frame) => (frame.value as { marker?: boolean } | undefined)?.marker === true,
    );
    expect(marker).toBeGreaterThan(order.indexOf('m4'));
    expect(order.indexOf('delta')).toBeGreaterThan(order.indexOf('m5'));
    client.ws.close();
  });
});

describe('event sockets: client frames', () => {
  let server: FakeSocketServer;
  let conversation: FakeConversation;
  beforeEach(async () => {
    server = await startFakeSocketServer();
    conversation = await server.addConversation('c1');
  });
  afterEach(() => server.close());

  it('sends Message frames to the conversation: string content coerced, unknown keys dropped, content lists kept', async () => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await client.waitFor((frames) => frames.length === 1);
    client.send({ role: 'user', content: 'hi', extra: 'ignored' });
    client.send({ role: 'user', content: [{ type: 'text', text: 'a list' }] });
    await expect.poll(() => conversation.received.length).toBe(2);
    expect(conversation.received[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'hi' }] });
    expect(conversation.received[0]).not.toHaveProperty('extra');
    expect(conversation.received[1]).toMatchObject({ content: [{ type: 'text', text: 'a list' }] });
    client.ws.close();
  });

  it('answers an invalid frame with a ServerErrorEvent on that socket only, and keeps going', async () => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    const bystander = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await client.waitFor((frames) => frames.length === 1);
    await bystander.waitFor((frames) => frames.length === 1);
    client.send('{"role": "user", "content": ');
    client.send({ role: 'robot', content: 'hi' });
    await client.waitFor((frames) => frames.filter((frame) => frame.kind === 'ServerErrorEvent').length === 2);
    const errors = client.frames.filter((frame) => frame.kind === 'ServerErrorEvent');
    expect(errors[0]).toMatchObject({ code: 'InvalidClientFrameError', source: 'environment' });
    expect(errors[0]!.detail).toContain('not JSON');
    expect(errors[1]!.detail).toContain('role');
    client.send({ role: 'user', content: 'still listening' });
    await expect.poll(() => conversation.received.length).toBe(1);
    await conversation.log.append(userMessage('live'));
    await bystander.waitFor((frames) => frames.length === 2);
    expect(bystander.frames.map((frame) => frame.kind)).toEqual(['ConversationStateUpdateEvent', 'MessageEvent']);
    client.ws.close();
    bystander.ws.close();
  });

  it('reports a failing sendUserMessage with the error class name as the code', async () => {
    class ConversationBusyError extends Error {
      override name = 'ConversationBusyError';
    }
    conversation.failWith(new ConversationBusyError('busy right now'));
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await client.waitFor((frames) => frames.length === 1);
    client.send({ role: 'user', content: 'hi' });
    await client.waitFor((frames) => frames.length === 2);
    expect(client.frames[1]).toMatchObject({
      kind: 'ServerErrorEvent',
      code: 'ConversationBusyError',
      detail: 'busy right now',
    });
    client.ws.close();
  });

  it('reports an error without a name by its class, never with an empty code', async () => {
    class NamelessFailure extends Error {
      override name = '';
    }
    conversation.failWith(new NamelessFailure('no name given'));
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await client.waitFor((frames) => frames.length === 1);
    client.send({ role: 'user', content: 'hi' });
    await client.waitFor((frames) => frames.length === 2);
    expect(client.frames[1]).toMatchObject({
      kind: 'ServerErrorEvent',
      code: 'NamelessFailure',
      detail: 'no name given',
    });
    client.ws.close();
  });
});

import { createEvent } from '@x/events';
import { EventLog } from '@x/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeConversation,
  type FakeSocketServer,
  startFakeSocketServer,
} from '../support/fake-event-socket-host.js';
import { connectRecording, persistedFrames } from '../support/socket-client.js';

// Where a socket's replay starts, at the edges: the first and last events, an event another writer appended that
// this process has not read yet, a timestamp before every event, and query values the reference refuses.

const message = (text: string, second: number) =>
  createEvent('MessageEvent', {
    source: 'user',
    timestamp: `2024-01-01T10:00:${String(second).padStart(2, '0')}.000000`,
    llm_message: { role: 'user', content: [{ type: 'text', text }] },
  });

const texts = (frames: Record<string, unknown>[]) =>
  persistedFrames(frames).map((frame) => (frame.llm_message as { content: { text: string }[] }).content[0]!.text);

describe('event sockets: replay start at the edges', () => {
  let server: FakeSocketServer;
  let conversation: FakeConversation;
  beforeEach(async () => {
    server = await startFakeSocketServer();
    conversation = await server.addConversation('c1');
    for (let index = 0; index < 4; index++) await conversation.log.append(message(`m${index}`, index));
  });
  afterEach(() => server.close());

  /** Connects with `query`, appends `m4` once the replay of `replayed` events is in, and returns every text seen. */
  async function replayThenLive(query: string, replayed: number): Promise<string[]> {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1?${query}`);
    // The full_state snapshot comes first: once it is in, the socket's start in the log is fixed.
    await client.waitFor((frames) => frames.length === 1 + replayed);
    await conversation.log.append(message('m4', 4));
    await client.waitFor((frames) => texts(frames).includes('m4'));
    client.ws.close();
    return texts(client.frames);
  }

  it('resumes after the first event with after_event_id', async () => {
    expect(await replayThenLive(`after_event_id=${conversation.log.idAt(0)}`, 3)).toEqual(['m1', 'm2', 'm3', 'm4']);
  });

  it('resumes after the last event with nothing replayed', async () => {
    expect(await replayThenLive(`after_event_id=${conversation.log.idAt(3)}`, 0)).toEqual(['m4']);
  });

  it('replays everything for a since timestamp before every event', async () => {
    expect(await replayThenLive('resend_mode=since&after_timestamp=2023-12-31T23:59:59', 4)).toEqual([
      'm0',
      'm1',
      'm2',
      'm3',
      'm4',
    ]);
  });

  it('replays from an event exactly at the since timestamp, the first one included', async () => {
    expect(await replayThenLive('resend_mode=since&after_timestamp=2024-01-01T10:00:00', 4)).toEqual([
      'm0',
      'm1',
      'm2',
      'm3',
      'm4',
    ]);
  });

  it('resumes after an event another writer appended that this process has not read yet', async () => {
    const replica = await EventLog.open(conversation.store, { dir: 'c1/events' });
    await replica.append(message('r4', 4));
    await replica.append(message('r5', 5));
    expect(conversation.log.length).toBe(4);
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1?after_event_id=${replica.idAt(4)}`);
    await client.waitFor((frames) => persistedFrames(frames).length === 1);
    expect(texts(client.frames)).toEqual(['r5']);
    client.ws.close();
  });

  it.each([
    ['1', ['m0', 'm1', 'm2', 'm3', 'm4']],
    ['yes', ['m0', 'm1', 'm2', 'm3', 'm4']],
    ['True', ['m0', 'm1', 'm2', 'm3', 'm4']],
    ['false', ['m4']],
    ['0', ['m4']],
  ])('reads the deprecated resend_all=%s as the reference does', async (value, expected) => {
    expect(await replayThenLive(`resend_all=${value}`, expected.length - 1)).toEqual(expected);
  });

  it.each([
    ['resend_mode=everything', 'resend_mode must be all or since, got "everything"'],
    ['resend_mode=ALL', 'resend_mode must be all or since, got "ALL"'],
    ['resend_mode=', 'resend_mode must be all or since, got ""'],
    ['resend_all=maybe', 'resend_all must be a boolean, got "maybe"'],
  ])('closes with 1008 for %s instead of silently replaying nothing', async (query, reason) => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1?${query}`);
    expect(await client.closed).toEqual({ code: 1008, reason });
    expect(persistedFrames(client.frames)).toEqual([]);
  });
});

// `DeltaFeed` against a stand-in conversation (deltas are published, never logged, so the timing a stream relies on is
// set here step by step rather than raced over HTTP): each delta carries the log's length when it was published,
// deltas fed before a stream attaches wait for it, a stopped feed gets nothing, `midRunFrom` tells a stream that
// reattaches whether a model call may be streaming that it missed the start of, and the conversation is watched
// only as long as a stream is attached or the run they watched goes on.
import { type AnyEvent, createEvent, parseEvent } from '@x/events';
import { describe, expect, it, vi } from 'vitest';
import type { ManagedConversation } from '../../src/conversations/managed-conversation.js';
import { DeltaFeed, type FedDelta } from '../../src/faces/ag-ui/delta-feed.js';

/** A conversation whose log length, running flag and published events the test sets. */
function standIn({ length = 0, running = false } = {}) {
  const listeners = new Set<(event: AnyEvent) => void>();
  let endRun: (() => void) | undefined;
  const state = { length, running };
  const conversation = {
    log: {
      get length() {
        return state.length;
      },
    },
    get isRunning() {
      return state.running;
    },
    onPublished(listener: (event: AnyEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    waitForRun: () =>
      new Promise<boolean>((resolve) => {
        endRun = () => {
          state.running = false;
          resolve(true);
        };
      }),
  } as unknown as ManagedConversation;
  const publish = (event: AnyEvent) => {
    for (const listener of listeners) listener(event);
  };
  return { conversation, state, listeners, publish, endRun: () => endRun?.() };
}

const delta = (content: string) => createEvent('StreamingDeltaEvent', { content });
const logged = parseEvent({ timestamp: '2026-01-01T00:00:00.000000', id: 'p1', kind: 'PauseEvent' });

/** Lets the watch's pending checks (promise callbacks) run: nothing else is waited for. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

function sinkOf(feed: DeltaFeed): FedDelta[] {
  const received: FedDelta[] = [];
  feed.attach((fed) => void received.push(fed));
  return received;
}

describe('DeltaFeed', () => {
  it('hands on the deltas fed before it was attached, then each later one, with the log’s length then', () => {
    const { conversation, state, publish } = standIn({ length: 3 });
    const feed = new DeltaFeed(conversation);
    const early = delta('Hel');
    publish(early);
    publish(logged);
    state.length = 5;
    const received = sinkOf(feed);
    const late = delta('lo');
    publish(late);
    expect(received).toEqual([
      { event: early, after: 3 },
      { event: late, after: 5 },
    ]);
    feed.stop();
    publish(delta('after the stream ended'));
    expect(received).toHaveLength(2);
  });

  it('sets midRunFrom only when a model call may be streaming whose start the feed missed', () => {
    const idle = standIn({ length: 4 });
    expect(new DeltaFeed(idle.conversation).midRunFrom).toBeUndefined();
    // A run that no stream watched: any call of it may be streaming.
    expect(new DeltaFeed(standIn({ length: 4, running: true }).conversation).midRunFrom).toBe(4);

    // Watched by a stream: mid-call only while no log event came since the last delta.
    const { conversation, state, publish } = standIn({ length: 2 });
    const first = new DeltaFeed(conversation);
    state.running = true;
    expect(new DeltaFeed(conversation).midRunFrom).toBeUndefined();
    publish(delta('Hel'));
    expect(new DeltaFeed(conversation).midRunFrom).toBe(2);
    state.length = 3;
    expect(new DeltaFeed(conversation).midRunFrom).toBeUndefined();
    first.stop();
  });

  it('stops watching once its last feed stopped and the run is over, not before', () => {
    const { conversation, listeners } = standIn();
    const first = new DeltaFeed(conversation);
    const second = new DeltaFeed(conversation);
    expect(listeners.size).toBe(1);
    first.stop();
    expect(listeners.size).toBe(1);
    second.stop();
    expect(listeners.size).toBe(0);
    // Watched again by the next stream.
    const next = new DeltaFeed(conversation);
    expect(listeners.size).toBe(1);
    next.stop();
    expect(listeners.size).toBe(0);
  });

  it('goes on watching a dropped stream’s run, for a stream that attaches before it ends', async () => {
    const { conversation, state, listeners, publish, endRun } = standIn({ length: 1, running: true });
    new DeltaFeed(conversation).stop();
    expect(listeners.size).toBe(1);
    const reattached = new DeltaFeed(conversation);
    const received = sinkOf(reattached);
    endRun();
    await settled();
    publish(delta('still here'));
    expect(received.map((fed) => fed.event)).toEqual([expect.objectContaining({ content: 'still here' })]);
    expect(listeners.size).toBe(1);
    reattached.stop();
    expect(listeners.size).toBe(0);

    // A dropped stream's run alone is watched until it ends.
    state.running = true;
    new DeltaFeed(conversation).stop();
    expect(listeners.size).toBe(1);
    endRun();
    await vi.waitFor(() => expect(listeners.size).toBe(0));
  });
});

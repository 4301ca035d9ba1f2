// A token delta published while the AG-UI stream is behind the log (its log subscription has not yet handed it the
// events appended before the delta: a loaded server) waits until those events are written, and is then written once.
// The lag cannot be made to happen over HTTP on demand, so `streamRun` runs against a stand-in conversation whose
// log subscription hands over entries only when the test releases them, with the real `DeltaFeed` and SSE frames.
import type { ServerResponse } from 'node:http';
import { type AnyEvent, createEvent } from '@x/events';
import { describe, expect, it, vi } from 'vitest';
import type { ManagedConversation } from '../../src/conversations/managed-conversation.js';
import { streamRun } from '../../src/faces/ag-ui/agui-stream.js';
import { DeltaFeed } from '../../src/faces/ag-ui/delta-feed.js';

function standIn(first: AnyEvent) {
  const events: AnyEvent[] = [first];
  const listeners = new Set<(event: AnyEvent) => void>();
  const state = { running: false, released: 0 };
  let wake = (): void => {};
  let endRun = (): void => {};
  const runEnded = new Promise<boolean>((resolve) => {
    endRun = () => {
      state.running = false;
      resolve(true);
    };
  });
  const conversation = {
    log: {
      get length() {
        return events.length;
      },
      idAt: (index: number) => events[index]?.id,
      async *subscribe(from: number, { signal }: { signal: AbortSignal }) {
        let next = from;
        while (!signal.aborted) {
          const event = events[next];
          if (next < state.released && event !== undefined) {
            yield { index: next, event };
            next += 1;
            continue;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            signal.addEventListener('abort', () => resolve(), { once: true });
          });
        }
      },
    },
    get isRunning() {
      return state.running;
    },
    waitForRun: () => runEnded,
    isDeleted: false,
    open: async () => ({ state: { execution_status: 'finished' }, pendingActions: async () => [] }),
    onPublished(listener: (event: AnyEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as ManagedConversation;
  return {
    conversation,
    state,
    append: (event: AnyEvent) => void events.push(event),
    /** Lets the log subscription hand over the entries below `count`. */
    release(count: number) {
      state.released = count;
      wake();
    },
    publish: (event: AnyEvent) => {
      for (const listener of listeners) listener(event);
    },
    endRun: () => endRun(),
  };
}

const user = createEvent('MessageEvent', {
  source: 'user',
  llm_message: { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
});
const stateUpdate = createEvent('ConversationStateUpdateEvent', { source: 'environment', key: 'stats', value: {} });
const answer = createEvent('MessageEvent', {
  source: 'agent',
  llm_message: { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
});
const delta = (content: string) => createEvent('StreamingDeltaEvent', { content });

describe('a delta published while the AG-UI stream is behind the log', () => {
  it('is written once, after the events logged before it', async () => {
    const log = standIn(user);
    const feed = new DeltaFeed(log.conversation);
    log.state.running = true;
    const frames: string[] = [];
    const response = { writableEnded: false, write: (chunk: string) => frames.push(chunk) > 0 };
    const streamed = streamRun({
      conversation: log.conversation,
      threadId: 't',
      runId: 'r',
      fromIndex: 0,
      sharedState: {},
      deltas: feed,
      response: response as unknown as ServerResponse,
      signal: new AbortController().signal,
    });
    const written = () =>
      frames
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice('data: '.length)) as { type: string; delta?: string });
    const contents = () => written().flatMap((event) => (event.type === 'TEXT_MESSAGE_CONTENT' ? [event.delta] : []));

    log.publish(delta('Hel'));
    expect(contents()).toEqual([]);
    log.release(1);
    await vi.waitFor(() => expect(contents()).toEqual(['Hel']), { timeout: 10_000 });

    log.append(stateUpdate);
    log.publish(delta('lo'));
    log.release(2);
    await vi.waitFor(() => expect(contents()).toEqual(['Hel', 'lo']), { timeout: 10_000 });

    log.append(answer);
    log.release(3);
    log.endRun();
    await streamed;
    expect(contents()).toEqual(['Hel', 'lo']);
    expect(written().at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });
});

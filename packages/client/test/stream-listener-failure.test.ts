// A listener that throws ends the stream with its own error (`done` rejects with it), never as an exception inside
// the socket's message handler, where it would escape to the process; the event it failed on is not counted as
// taken, so an attach from `nextIndex` gets it again.
import type { XServe } from '@x/browser-testing';
import type { AnyEvent } from '@x/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamConversationEvents } from '../src/index.js';
import { api, eventually, KEY, scriptedAgent, startServer, TEST_TIMEOUT } from './support/x-server.js';

let server: XServe;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('a stream whose listener throws', TEST_TIMEOUT, () => {
  it('ends with the listener’s error, and an attach from nextIndex gets the event it failed on', async () => {
    const { id } = (await api(server, 'POST', '/api/conversations', {
      agent: scriptedAgent([]),
      workspace: { working_dir: '.' },
    })) as { id: string };
    for (const text of ['first', 'second', 'third']) {
      await api(server, 'POST', `/api/conversations/${id}/events`, {
        role: 'user',
        content: [{ type: 'text', text }],
        run: false,
      });
    }
    const failure = new Error('the listener broke');
    const taken: number[] = [];
    const stream = streamConversationEvents(server.url, id, {
      apiKey: KEY,
      fromIndex: 0,
      reconnect: { initialDelayMs: 10 },
      onEvent: (event: AnyEvent, index) => {
        if (index === undefined) return;
        if (event.kind === 'MessageEvent') throw failure;
        taken.push(index);
      },
    });
    await expect(stream.done).rejects.toBe(failure);
    const failedAt = stream.nextIndex;
    expect(taken).toEqual([...Array(failedAt).keys()]);

    const again: { kind: string; index: number | undefined }[] = [];
    const resumed = streamConversationEvents(server.url, id, {
      apiKey: KEY,
      fromIndex: failedAt,
      onEvent: (event, index) => {
        if (index !== undefined) again.push({ kind: event.kind, index });
      },
    });
    await resumed.ready;
    // The replay may follow the snapshot that makes the stream ready: wait for it, not for `ready`.
    await eventually(() => again[0]).toEqual({ kind: 'MessageEvent', index: failedAt });
    resumed.close();
    await resumed.done;
  });
});

import type { XServe } from '@x/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteConversation } from '../src/index.js';
import { api, eventually, KEY, scriptedAgent, startServer, TEST_TIMEOUT } from './support/x-server.js';

let server: XServe;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const options = { apiKey: KEY, pollIntervalMs: 50, runTimeoutMs: 90_000 };

async function say(id: string, text: string): Promise<void> {
  await api(server, 'POST', `/api/conversations/${id}/events`, {
    role: 'user',
    content: [{ type: 'text', text }],
    run: false,
  });
}

async function logIds(id: string): Promise<string[]> {
  const page = (await api(server, 'GET', `/api/conversations/${id}/events/search?limit=100`)) as {
    items: { id: string }[];
  };
  return page.items.map((event) => event.id);
}

describe('attaching again where a closed RemoteConversation stopped', TEST_TIMEOUT, () => {
  it('delivers what was appended while it was away, each event once with its index, then live ones', async () => {
    const first = await RemoteConversation.create(server.url, { ...options, agent: scriptedAgent([]) });
    await first.sendMessage('before close');
    await eventually(() => first.nextIndex).toBe(2);
    await first.close();
    const stoppedAt = first.nextIndex;
    expect(stoppedAt).toBe(2);

    await say(first.id, 'while away, one');
    await say(first.id, 'while away, two');
    const heard: string[] = [];
    const again = await RemoteConversation.attach(server.url, first.id, {
      ...options,
      fromIndex: stoppedAt,
      onEvent: (event, index) => {
        if (index !== undefined) heard.push(`${index}:${event.id}`);
      },
    });
    try {
      await again.sendMessage('after attaching');
      const ids = await logIds(first.id);
      expect(ids).toHaveLength(5);
      await eventually(() => heard).toEqual(ids.slice(stoppedAt).map((id, n) => `${n + stoppedAt}:${id}`));
      expect(again.nextIndex).toBe(5);

      // A fork is another log: it starts live, not at an index of this one.
      const fork = await again.fork();
      try {
        expect(fork.nextIndex).toBe((await logIds(fork.id)).length);
      } finally {
        await fork.close();
      }
    } finally {
      await again.close();
    }
  });
});

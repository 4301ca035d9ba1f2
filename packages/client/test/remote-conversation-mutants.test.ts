import type { XServe } from '@x/browser-testing';
import { type AnyEvent, userMessage } from '@x/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteConversation, RemoteConversationNotFoundError, RemoteRunError } from '../src/index.js';
import { api, eventually, finish, KEY, scriptedAgent, startServer, TEST_TIMEOUT } from './support/x-server.js';

let server: XServe;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const options = { apiKey: KEY, pollIntervalMs: 50, runTimeoutMs: 90_000 };

async function collect(events: AsyncIterable<AnyEvent>): Promise<AnyEvent[]> {
  const all: AnyEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('RemoteConversation against x serve', TEST_TIMEOUT, () => {
  it('creates with the start request fields it was given', async () => {
    const id = crypto.randomUUID();
    const conversation = await RemoteConversation.create(`${server.url}/`, {
      ...options,
      id,
      agent: scriptedAgent([finish('done')]),
      confirmationPolicy: { kind: 'AlwaysConfirm' },
      maxIterations: 7,
      secrets: { PLAIN: 'one', RICH: { value: 'two', description: 'the second' } },
      extra: { tags: { team: 'client' } },
    });
    try {
      expect(conversation.id).toBe(id);
      expect(conversation.serverUrl).toBe(server.url);
      const info = (await api(server, 'GET', `/api/conversations/${id}`)) as Record<string, unknown>;
      expect(info.confirmation_policy).toEqual({ kind: 'AlwaysConfirm' });
      expect(info.max_iterations).toBe(7);
      expect(info.tags).toEqual({ team: 'client' });
      const sources = (info.secret_registry as { secret_sources: Record<string, unknown> }).secret_sources;
      expect(Object.keys(sources).sort()).toEqual(['PLAIN', 'RICH']);
      expect(conversation.state.max_iterations).toBe(7);
      expect(conversation.leafEventId).toBe(info.leaf_event_id);
    } finally {
      await conversation.close();
    }
  });

  it('attaches to a conversation it knows, refuses one it does not, and creates it when given an agent', async () => {
    const first = await RemoteConversation.create(server.url, { ...options, agent: scriptedAgent([finish('a')]) });
    await first.close();
    const attached = await RemoteConversation.attach(server.url, first.id, options);
    expect(attached.id).toBe(first.id);
    expect(attached.state.id).toBe(first.id);
    await attached.close();

    const missing = crypto.randomUUID();
    await expect(RemoteConversation.attach(server.url, missing, options)).rejects.toSatisfy((error) =>
      RemoteConversationNotFoundError.isInstance(error),
    );
    const created = await RemoteConversation.attach(server.url, missing, {
      ...options,
      agent: scriptedAgent([finish('b')]),
    });
    expect(created.id).toBe(missing);
    expect(created.state.id).toBe(missing);
    await created.close();
  });

  it('runs to the end, with events, state and listeners kept current', async () => {
    const received: { kind: string; index: number | undefined }[] = [];
    const conversation = await RemoteConversation.create(server.url, {
      ...options,
      agent: scriptedAgent([finish('first'), finish('second')]),
      onEvent: (event, index) => received.push({ kind: event.kind, index }),
    });
    const subscribed: string[] = [];
    let persisted = -1;
    const unsubscribe = conversation.subscribe((event) => subscribed.push(event.kind));
    try {
      expect(conversation.nextIndex).toBe(1);
      await conversation.sendMessage('hello');
      expect(await conversation.run()).toEqual({ status: 'finished' });
      expect(conversation.state.execution_status).toBe('finished');
      const events = await collect(conversation.events());
      const message = events.find((event) => event.kind === 'MessageEvent' && event.source === 'user');
      expect(message).toMatchObject({ llm_message: { role: 'user' } });
      await eventually(() => conversation.nextIndex).toBe(events.length);
      expect(received.filter((entry) => entry.index !== undefined).map((entry) => entry.index)).toEqual(
        events.slice(1).map((_, position) => position + 1),
      );
      // The listener given at creation also saw the connection's first snapshot, sent before `subscribe`.
      expect(received[0]?.kind).toBe('ConversationStateUpdateEvent');
      expect(subscribed).toEqual(received.slice(1).map((entry) => entry.kind));

      unsubscribe();
      const before = subscribed.length;
      await conversation.sendMessage(userMessage('again').llm_message);
      expect((await conversation.run()).status).toBe('finished');
      expect(subscribed.length).toBe(before);
      const texts = (await collect(conversation.events()))
        .filter((event) => event.kind === 'MessageEvent' && event.source === 'user')
        .map((event) => JSON.stringify(event));
      expect(texts.at(-1)).toContain('again');
      persisted = (await collect(conversation.events())).length;
      await eventually(() => conversation.nextIndex).toBe(persisted);
    } finally {
      await conversation.close();
    }
    // After close, where the stream stopped: what a later attach resumes from, not 0.
    expect(conversation.nextIndex).toBe(persisted);
    const closedAt = received.length;
    await api(server, 'POST', `/api/conversations/${conversation.id}/events`, {
      role: 'user',
      content: [{ type: 'text', text: 'after close' }],
      run: false,
    });
    expect(received.length).toBe(closedAt);
  });

  it('reads every event page by page, oldest first', async () => {
    const conversation = await RemoteConversation.create(server.url, { ...options, agent: scriptedAgent([]) });
    try {
      for (let n = 0; n < 100; n += 1) await conversation.sendMessage(`message ${n}`);
      const events = await collect(conversation.events());
      expect(events).toHaveLength(101);
      const texts = events.slice(1).map((event) => JSON.stringify(event));
      expect(texts[0]).toContain('message 0');
      expect(texts[99]).toContain('message 99');
    } finally {
      await conversation.close();
    }
  });

  it('fails a run that ends in error with the error event', async () => {
    const conversation = await RemoteConversation.create(server.url, { ...options, agent: scriptedAgent([]) });
    try {
      await conversation.sendMessage('hello');
      const error = await conversation.run().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(RemoteRunError.isInstance(error)).toBe(true);
      expect((error as RemoteRunError).status).toBe('error');
      expect((error as RemoteRunError).detail).toMatch(/script/);
    } finally {
      await conversation.close();
    }
  });
});

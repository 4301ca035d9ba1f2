import type { XServe } from '@x/browser-testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  RemoteConversation,
  RemoteConversationNotFoundError,
  RemoteRunError,
  RemoteTimeoutError,
} from '../src/index.js';
import { type LoopbackProxy, startLoopbackProxy } from './support/loopback-proxy.js';
import { api, eventually, finish, KEY, scriptedAgent, startServer, TEST_TIMEOUT } from './support/x-server.js';

let server: XServe;
let proxy: LoopbackProxy;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});
afterEach(async () => {
  await proxy?.close();
});

// Without a grace period to fall back on, a run ends only by the snapshot published after it (unless a test
// mutes the stream and sets its own grace).
const options = { apiKey: KEY, pollIntervalMs: 20, snapshotGraceMs: 600_000, runTimeoutMs: 90_000 };
const think = { toolCalls: [{ name: 'think', arguments: { thought: 'the same again' } }] };
const sleepy = { toolCalls: [{ name: 'terminal', arguments: { command: 'sleep 30' } }] };

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );

describe('RemoteConversation.run() waiting for the end of a run', TEST_TIMEOUT, () => {
  it('ends by REST polling once the stream misses the snapshot, after the grace period', async () => {
    proxy = await startLoopbackProxy(server.url);
    const conversation = await RemoteConversation.create(proxy.url, {
      ...options,
      agent: scriptedAgent([finish('done')]),
      snapshotGraceMs: 300,
    });
    try {
      await conversation.sendMessage('hello');
      proxy.muteSockets(true);
      const started = performance.now();
      expect(await conversation.run()).toEqual({ status: 'finished' });
      expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    } finally {
      proxy.muteSockets(false);
      await conversation.close();
    }
  });

  it('retries polls that fail on the network', async () => {
    proxy = await startLoopbackProxy(server.url);
    const conversation = await RemoteConversation.create(proxy.url, {
      ...options,
      agent: scriptedAgent([finish('done')]),
      snapshotGraceMs: 300,
    });
    const path = `/api/conversations/${conversation.id}`;
    try {
      await conversation.sendMessage('hello');
      proxy.muteSockets(true);
      const waiting = conversation.run();
      await eventually(() => proxy.requests.slice(proxy.requests.indexOf(`POST ${path}/run`))).toContain(`GET ${path}`);
      proxy.setRest('refuse');
      proxy.dropRest();
      await eventually(() => proxy.restRefused).toBeGreaterThanOrEqual(3);
      proxy.setRest('pass');
      expect(await waiting).toEqual({ status: 'finished' });
    } finally {
      proxy.muteSockets(false);
      await conversation.close();
    }
  });

  it('fails when the conversation is deleted while it waits', async () => {
    proxy = await startLoopbackProxy(server.url);
    const conversation = await RemoteConversation.create(proxy.url, {
      ...options,
      agent: scriptedAgent([finish('done')]),
      snapshotGraceMs: 600_000,
    });
    try {
      await conversation.sendMessage('hello');
      proxy.muteSockets(true);
      // Its failure is taken at once: it may come before the DELETE below is answered.
      const waiting = failure(conversation.run());
      const status = async () =>
        ((await api(server, 'GET', `/api/conversations/${conversation.id}`)) as { execution_status: string })
          .execution_status;
      await eventually(status).toBe('finished');
      await api(server, 'DELETE', `/api/conversations/${conversation.id}`);
      const error = await waiting;
      expect(RemoteConversationNotFoundError.isInstance(error)).toBe(true);
    } finally {
      proxy.muteSockets(false);
      await conversation.close();
    }
  });

  it('trusts a polled end at once with no grace period', async () => {
    proxy = await startLoopbackProxy(server.url);
    const conversation = await RemoteConversation.create(proxy.url, {
      ...options,
      agent: scriptedAgent([finish('done')]),
      snapshotGraceMs: 0,
      runTimeoutMs: 90_000,
    });
    try {
      await conversation.sendMessage('hello');
      proxy.muteSockets(true);
      expect(await conversation.run()).toEqual({ status: 'finished' });
    } finally {
      proxy.muteSockets(false);
      await conversation.close();
    }
  });

  it('gives up after runTimeoutMs', async () => {
    const conversation = await RemoteConversation.create(server.url, {
      ...options,
      agent: scriptedAgent([sleepy], ['terminal']),
      runTimeoutMs: 300,
    });
    try {
      await conversation.sendMessage('wait');
      const error = await failure(conversation.run());
      expect(RemoteTimeoutError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(conversation.id);
      await conversation.interrupt();
    } finally {
      await conversation.close();
    }
  });

  it('resolves paused when interrupted, and fails with stuck when the agent repeats itself', async () => {
    const conversation = await RemoteConversation.create(server.url, {
      ...options,
      agent: scriptedAgent([sleepy, ...Array.from({ length: 8 }, () => think)], ['terminal']),
    });
    try {
      await conversation.sendMessage('wait');
      const run = conversation.run();
      await eventually(() => conversation.state.execution_status).toBe('running');
      await conversation.interrupt();
      expect(await run).toEqual({ status: 'paused' });
      const error = await failure(conversation.run());
      expect(RemoteRunError.isInstance(error), String(error)).toBe(true);
      expect((error as RemoteRunError).status).toBe('stuck');
    } finally {
      await conversation.close();
    }
  });

  it('waits for a run already under way (409) to end', async () => {
    const conversation = await RemoteConversation.create(server.url, {
      ...options,
      agent: scriptedAgent([sleepy, finish('done')], ['terminal']),
    });
    const other = await RemoteConversation.attach(server.url, conversation.id, options);
    try {
      await conversation.sendMessage('wait');
      const first = conversation.run();
      await eventually(() => other.state.execution_status).toBe('running');
      const second = other.run();
      await other.pause();
      await conversation.interrupt();
      expect(await first).toEqual({ status: 'paused' });
      expect(await second).toEqual({ status: 'paused' });
    } finally {
      await other.close();
      await conversation.close();
    }
  });

  it('fails at once on an error polling sees, once it saw the run running (also before it was armed)', async () => {
    proxy = await startLoopbackProxy(server.url);
    const slow = { toolCalls: [{ name: 'terminal', arguments: { command: 'sleep 1' } }] };
    const id = (
      (await api(server, 'POST', '/api/conversations', {
        agent: scriptedAgent([slow], ['terminal']),
        workspace: { working_dir: '.' },
      })) as { id: string }
    ).id;
    await api(server, 'POST', `/api/conversations/${id}/events`, {
      role: 'user',
      content: [{ type: 'text', text: 'go' }],
      run: true,
    });
    // Attached while the run is under way: the cached status is `running` when run() is armed.
    const conversation = await RemoteConversation.attach(proxy.url, id, {
      ...options,
      // The first poll comes after the run ended: only the cached status says it was running.
      pollIntervalMs: 2_000,
      snapshotGraceMs: 600_000,
      runTimeoutMs: 90_000,
    });
    try {
      expect(conversation.state.execution_status).toBe('running');
      proxy.muteSockets(true);
      const error = await failure(conversation.run());
      expect(RemoteRunError.isInstance(error)).toBe(true);
      expect((error as RemoteRunError).status).toBe('error');
    } finally {
      proxy.muteSockets(false);
      await conversation.close();
    }
  });
});

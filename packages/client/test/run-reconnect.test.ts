import type { XServe } from '@x/browser-testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RemoteConversation, RemoteRunError } from '../src/index.js';
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

// Polling goes on all along, but may never end a run: the end it sees is trusted only after an hour.
const options = {
  apiKey: KEY,
  pollIntervalMs: 20,
  snapshotGraceMs: 3_600_000,
  runTimeoutMs: 3_600_000,
  reconnect: { initialDelayMs: 1, maxDelayMs: 20 },
};

/** The settled outcome of `promise` once it settles (a result or an error), undefined before. */
function outcomeOf(promise: Promise<unknown>): () => unknown {
  let outcome: unknown;
  promise.then(
    (result) => {
      outcome = result;
    },
    (error: unknown) => {
      outcome = error;
    },
  );
  return () => outcome;
}

/**
 * Runs the conversation with its event stream silenced, waits until the run was answered (polling began) and ended
 * on the server with `status`, then cuts the stream and keeps it down until the client tried to reconnect: the
 * run's end and its post-run snapshot happened while the client heard nothing. Returns the outcome of `run()`.
 */
async function runEndingWhileDisconnected(conversation: RemoteConversation, status: string): Promise<() => unknown> {
  const path = `/api/conversations/${conversation.id}`;
  proxy.muteSockets(true);
  const outcome = outcomeOf(conversation.run());
  await eventually(() => proxy.requests.slice(proxy.requests.indexOf(`POST ${path}/run`))).toContain(`GET ${path}`);
  const serverStatus = async () => ((await api(server, 'GET', path)) as { execution_status: string }).execution_status;
  await eventually(serverStatus).toBe(status);
  proxy.setSockets('refuse');
  proxy.dropSockets();
  const connections = proxy.socketConnections;
  // A refused reconnection: the client knows its stream dropped.
  await eventually(() => proxy.socketConnections).toBeGreaterThan(connections);
  proxy.muteSockets(false);
  expect(outcome()).toBeUndefined();
  return outcome;
}

describe('RemoteConversation.run() when the run ends while the stream is down', TEST_TIMEOUT, () => {
  it('resolves as soon as the stream is back, from the state its reconnection starts with', async () => {
    proxy = await startLoopbackProxy(server.url);
    const conversation = await RemoteConversation.create(proxy.url, {
      ...options,
      agent: scriptedAgent([finish('done')]),
    });
    try {
      await conversation.sendMessage('hello');
      const outcome = await runEndingWhileDisconnected(conversation, 'finished');
      proxy.setSockets('pass');
      await eventually(outcome).toEqual({ status: 'finished' });
    } finally {
      await conversation.close();
    }
  });

  it('fails with the error the replayed events carry when the run ended in error', async () => {
    proxy = await startLoopbackProxy(server.url);
    const conversation = await RemoteConversation.create(proxy.url, {
      ...options,
      // The script runs out after the tool: the run ends in error.
      agent: scriptedAgent([{ toolCalls: [{ name: 'think', arguments: { thought: 'and then?' } }] }], ['think']),
    });
    try {
      await conversation.sendMessage('hello');
      const outcome = await runEndingWhileDisconnected(conversation, 'error');
      proxy.setSockets('pass');
      await eventually(() => RemoteRunError.isInstance(outcome())).toBe(true);
      expect(outcome()).toMatchObject({ status: 'error' });
      // Its detail is the ConversationErrorEvent of the run, which only the replay after the snapshot carried.
      expect((outcome() as RemoteRunError).detail).toEqual(expect.stringContaining(':'));
    } finally {
      await conversation.close();
    }
  });

  it('goes on waiting when the reconnection finds the run still running', async () => {
    proxy = await startLoopbackProxy(server.url);
    const sleepy = { toolCalls: [{ name: 'terminal', arguments: { command: 'sleep 30' } }] };
    const conversation = await RemoteConversation.create(proxy.url, {
      ...options,
      agent: scriptedAgent([sleepy, finish('done')], ['terminal']),
    });
    const path = `/api/conversations/${conversation.id}`;
    try {
      await conversation.sendMessage('hello');
      const outcome = outcomeOf(conversation.run());
      await eventually(() => proxy.requests.slice(proxy.requests.indexOf(`POST ${path}/run`))).toContain(`GET ${path}`);
      proxy.dropSockets();
      // Back, and the reconnection's snapshot shows the run going on: no end yet.
      await eventually(() => proxy.socketConnections).toBeGreaterThan(1);
      await eventually(() => conversation.state.execution_status).toBe('running');
      await conversation.pause();
      await conversation.interrupt();
      await eventually(outcome).toEqual({ status: 'paused' });
    } finally {
      await conversation.close();
    }
  });
});

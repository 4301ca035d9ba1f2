import type { XServe } from '@x/browser-testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RemoteConversation, RemoteStreamClosedError, RemoteTimeoutError } from '../src/index.js';
import { type LoopbackProxy, startLoopbackProxy } from './support/loopback-proxy.js';
import { api, eventually, KEY, scriptedAgent, startServer, TEST_TIMEOUT } from './support/x-server.js';

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

const options = { apiKey: KEY, pollIntervalMs: 50, runTimeoutMs: 90_000 };
const sleepy = { toolCalls: [{ name: 'terminal', arguments: { command: 'sleep 30' } }] };

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );

async function conversationId(): Promise<string> {
  const info = (await api(server, 'POST', '/api/conversations', {
    agent: scriptedAgent([]),
    workspace: { working_dir: '.' },
  })) as { id: string };
  return info.id;
}

describe('RemoteConversation passes its stream options on', TEST_TIMEOUT, () => {
  it('resumes the way it is told: by timestamp, or by index without reading a timestamp start', async () => {
    proxy = await startLoopbackProxy(server.url);
    const id = await conversationId();
    const byTimestamp = await RemoteConversation.attach(proxy.url, id, { ...options, resume: 'timestamp' });
    await byTimestamp.close();
    expect(proxy.socketRequests).toHaveLength(1);
    expect(proxy.socketRequests[0]).toMatch(/[?&]resend_mode=since&after_timestamp=/);
    expect(proxy.socketRequests[0]).not.toContain('from_index');

    const searchesBefore = proxy.requests.filter((line) => line.includes('/events/search')).length;
    const byIndex = await RemoteConversation.attach(proxy.url, id, { ...options, resume: 'index' });
    await byIndex.close();
    expect(proxy.socketRequests[1]).toMatch(/\?from_index=1$/);
    expect(proxy.requests.filter((line) => line.includes('/events/search'))).toHaveLength(searchesBefore);
  });

  it('gives up on a stream without a snapshot after readyTimeoutMs', async () => {
    proxy = await startLoopbackProxy(server.url);
    const id = await conversationId();
    proxy.setSockets('stall');
    const error = await failure(RemoteConversation.attach(proxy.url, id, { ...options, readyTimeoutMs: 300 }));
    expect(RemoteTimeoutError.isInstance(error)).toBe(true);
    expect((error as RemoteTimeoutError).timeoutMs).toBe(300);
  });

  it('fails a run in progress at the first drop when told not to reconnect', async () => {
    proxy = await startLoopbackProxy(server.url);
    const conversation = await RemoteConversation.create(proxy.url, {
      ...options,
      agent: scriptedAgent([sleepy], ['terminal']),
      reconnect: false,
    });
    try {
      await conversation.sendMessage('wait');
      const run = failure(conversation.run());
      await eventually(() => conversation.state.execution_status).toBe('running');
      proxy.dropSockets();
      const error = await run;
      expect(RemoteStreamClosedError.isInstance(error)).toBe(true);
      await conversation.interrupt();
    } finally {
      await conversation.close();
    }
  });
});

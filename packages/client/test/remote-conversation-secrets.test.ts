import type { XServe } from '@x/browser-testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RemoteConversation } from '../src/index.js';
import { type LoopbackProxy, startLoopbackProxy } from './support/loopback-proxy.js';
import { KEY, scriptedAgent, startServer, TEST_TIMEOUT } from './support/x-server.js';

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

/** The JSON bodies of the REST requests sent so far whose text contains `marker`. */
function bodiesWith(marker: string): Record<string, unknown>[] {
  return proxy.restTraffic
    .filter((chunk) => chunk.includes(marker))
    .map((chunk) => JSON.parse(chunk.slice(chunk.indexOf('{'))) as Record<string, unknown>);
}

describe('RemoteConversation secrets on the wire', TEST_TIMEOUT, () => {
  it("sends a plain secret as its value and one with a description as the reference's StaticSecret", async () => {
    proxy = await startLoopbackProxy(server.url);
    const conversation = await RemoteConversation.create(proxy.url, {
      apiKey: KEY,
      agent: scriptedAgent([]),
      secrets: { PLAIN: 'one', RICH: { value: 'two', description: 'the second' }, BARE: {} },
    });
    try {
      await conversation.updateSecrets({ LATER: 'three', LATER_RICH: { description: 'no value yet' } });
      const [created] = bodiesWith('"PLAIN"');
      expect(created?.secrets).toEqual({
        PLAIN: 'one',
        RICH: { kind: 'StaticSecret', value: 'two', description: 'the second' },
        BARE: { kind: 'StaticSecret', value: null, description: null },
      });
      const [updated] = bodiesWith('"LATER"');
      expect(updated?.secrets).toEqual({
        LATER: 'three',
        LATER_RICH: { kind: 'StaticSecret', value: null, description: 'no value yet' },
      });
    } finally {
      await conversation.close();
    }
  });
});

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

  it('sends a secret named __proto__ as an own property of the body, on create and on update', async () => {
    proxy = await startLoopbackProxy(server.url);
    // JSON.parse makes `__proto__` an own property, as a caller's map of names read from a file would have it.
    const named = JSON.parse('{"__proto__": "proto-secret", "NEXT": "next"}') as Record<string, string>;
    const conversation = await RemoteConversation.create(proxy.url, {
      apiKey: KEY,
      agent: scriptedAgent([]),
      secrets: named,
    });
    try {
      await conversation.updateSecrets(JSON.parse('{"__proto__": {"value": "later"}, "AFTER": "after"}'));
      const [created] = bodiesWith('"NEXT"');
      const createdSecrets = created?.secrets as Record<string, unknown>;
      expect(Object.keys(createdSecrets)).toEqual(['__proto__', 'NEXT']);
      expect(Object.getOwnPropertyDescriptor(createdSecrets, '__proto__')?.value).toBe('proto-secret');
      const [updated] = bodiesWith('"AFTER"');
      const updatedSecrets = updated?.secrets as Record<string, unknown>;
      expect(Object.keys(updatedSecrets)).toEqual(['__proto__', 'AFTER']);
      expect(Object.getOwnPropertyDescriptor(updatedSecrets, '__proto__')?.value).toEqual({
        kind: 'StaticSecret',
        value: 'later',
        description: null,
      });
    } finally {
      await conversation.close();
    }
  });
});

import type { XServe } from '@x/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createConversationCommands,
  fetchEventsBefore,
  RemoteAuthError,
  RemoteConversation,
  streamConversationEvents,
} from '../src/index.js';
import { type LoopbackProxy, startLoopbackProxy } from './support/loopback-proxy.js';
import { KEY, scriptedAgent, startServer, TEST_TIMEOUT } from './support/x-server.js';

let server: XServe;
let proxy: LoopbackProxy;
beforeAll(async () => {
  server = await startServer();
  proxy = await startLoopbackProxy(server.url);
});
afterAll(async () => {
  await proxy?.close();
  await server?.stop();
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );

/** Every REST call of the client's public API on one conversation, by name. */
function restCalls(conversation: RemoteConversation): Record<string, () => Promise<unknown>> {
  const commands = createConversationCommands(proxy.url, conversation.id, { apiKey: KEY });
  return {
    attach: () => RemoteConversation.attach(proxy.url, conversation.id, { apiKey: KEY }),
    create: () => RemoteConversation.create(proxy.url, { apiKey: KEY, agent: scriptedAgent([]) }),
    refresh: () => conversation.refresh(),
    sendMessage: () => conversation.sendMessage('hello'),
    run: () => conversation.run(),
    pause: () => conversation.pause(),
    interrupt: () => conversation.interrupt(),
    fork: () => conversation.fork(),
    navigateTo: () => conversation.navigateTo(null),
    updateSecrets: () => conversation.updateSecrets({ TOKEN: 'secret' }),
    setSecurityAnalyzer: () => conversation.setSecurityAnalyzer('none'),
    rejectPendingActions: () => conversation.rejectPendingActions(),
    setConfirmationPolicy: () => conversation.setConfirmationPolicy({ kind: 'NeverConfirm' }),
    condense: () => conversation.condense(),
    askAgent: () => conversation.askAgent('why?'),
    generateTitle: () => conversation.generateTitle(),
    events: () => conversation.events().next(),
    fetchEventsBefore: () => fetchEventsBefore(proxy.url, conversation.id, crypto.randomUUID(), { apiKey: KEY }),
    'commands.sendMessage': () => commands.sendMessage('hello', { run: true }),
    'commands.run': () => commands.run(),
    'commands.pause': () => commands.pause(),
    'commands.interrupt': () => commands.interrupt(),
    'commands.confirm': () => commands.confirm(),
    'commands.reject': () => commands.reject(),
    'commands.fork': () => commands.fork(),
  };
}

describe('an auth failure of a REST call', TEST_TIMEOUT, () => {
  it('is RemoteAuthError for a 401 and a 403 alike, from every call, as the stream reports either', async () => {
    const conversation = await RemoteConversation.create(proxy.url, { apiKey: KEY, agent: scriptedAgent([]) });
    try {
      for (const status of [401, 403]) {
        proxy.setRest({ status });
        for (const [name, call] of Object.entries(restCalls(conversation))) {
          const error = await failure(call());
          expect(RemoteAuthError.isInstance(error), `${name} with ${status}: ${String(error)}`).toBe(true);
          expect((error as RemoteAuthError).status, name).toBe(status);
        }
        // The stream, refused the same way at its upgrade, gives the same class.
        proxy.setSockets({ status });
        const stream = streamConversationEvents(proxy.url, conversation.id, {
          apiKey: KEY,
          fromIndex: 0,
          resume: 'index',
          onEvent: () => undefined,
        });
        const streamError = await failure(stream.done);
        expect(RemoteAuthError.isInstance(streamError), String(streamError)).toBe(true);
        expect((streamError as RemoteAuthError).status).toBe(status);
        proxy.setSockets('pass');
      }
    } finally {
      proxy.setRest('pass');
      await conversation.close();
    }
  });

  it('says which status it was and what the server said', async () => {
    const error = await failure(
      createConversationCommands(server.url, crypto.randomUUID(), { apiKey: 'wrong' }).pause(),
    );
    expect(RemoteAuthError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 401, code: 'remote_auth_failed' });
    expect((error as Error).message).toContain('refused the session API key');
  });
});

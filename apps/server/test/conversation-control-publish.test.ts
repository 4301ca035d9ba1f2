// What a conversation's watchers (its event sockets) are told when a control route changes it without a run: a
// new confirmation policy reaches them as a full state at once.
import type { AnyEvent } from '@x/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, removeDir, startTestServer, type TestServer } from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('POST /api/conversations/{id}/confirmation_policy', () => {
  it('publishes the full state with the new policy to the conversation’s watchers', async () => {
    const id = await createConversation(server);
    const managed = await server.built.manager.require(id);
    const published: AnyEvent[] = [];
    const stop = managed.onPublished((event) => published.push(event));
    try {
      const policy = { kind: 'AlwaysConfirm' };
      const set = await server.call('POST', `/api/conversations/${id}/confirmation_policy`, { policy });
      expect(set).toEqual({ status: 200, json: { success: true } });
      const fullStates = published.filter(
        (event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'full_state',
      );
      expect(fullStates.length).toBeGreaterThan(0);
      expect(fullStates.at(-1)).toMatchObject({ value: { confirmation_policy: policy } });
    } finally {
      stop();
    }
  });
});

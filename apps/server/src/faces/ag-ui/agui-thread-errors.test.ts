import { StoreBackendError } from '@x/store';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { installErrorHandlers } from '../../api/error-handler.js';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import { InvalidConversationIdError } from '../../conversations/errors/invalid-conversation-id-error.js';
import { registerAgUiRoutes } from './agui-routes.js';

// What finding the thread can fail with, as the client sees it: only a malformed threadId is the request's fault;
// a store that cannot answer is the server's (it was a 400 blaming the threadId). The manager here is a stand-in
// whose `get` fails as the real one does for each cause (`conversation-manager.ts`).

async function answerWhenGetFails(error: Error): Promise<{ status: number; body: Record<string, unknown> }> {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandlers(app);
  const manager = { get: () => Promise.reject(error) } as unknown as ConversationManager;
  registerAgUiRoutes(app, manager);
  const response = await app.inject({
    method: 'POST',
    url: '/api/ag-ui',
    payload: { threadId: 'thread-1', runId: 'run-1', messages: [] },
  });
  await app.close();
  return { status: response.statusCode, body: response.json() };
}

describe('AG-UI: finding the thread', () => {
  it('a malformed threadId is a 400 naming threadId', async () => {
    const { status, body } = await answerWhenGetFails(new InvalidConversationIdError('thread-1'));
    expect(status).toBe(400);
    expect(body.detail).toMatch(/^threadId: Invalid conversation id "thread-1"/);
  });

  it("a store that fails is the server's error, not the request's", async () => {
    const { status, body } = await answerWhenGetFails(
      new StoreBackendError({
        operation: 'exists',
        path: 'meta.json',
        location: 's3://bucket',
        cause: new Error('down'),
      }),
    );
    expect(status).toBe(500);
    expect(body.detail).toBe('Internal Server Error');
  });
});

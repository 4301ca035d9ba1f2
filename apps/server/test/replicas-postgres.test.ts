import { startScriptedLLMServer } from '@x/agent/testing';
import {
  createTestDatabase,
  type PostgresServer,
  startPostgresServer,
  type TestDatabase,
} from '@x/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createConversation,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  tempDir,
  waitFor,
} from './helpers.js';
import { connectRecording, persistedFrames } from './support/socket-client.js';

let postgres: PostgresServer;
let database: TestDatabase;
beforeAll(async () => {
  postgres = await startPostgresServer();
  database = await createTestDatabase(postgres.url);
});
afterAll(async () => {
  await database?.drop();
  await postgres?.stop();
});

type Info = Record<string, unknown>;

describe('x serve --database-url: replicas on one PostgreSQL', () => {
  it('answers on replica B for a conversation created and run on replica A, and streams its events live to B', async () => {
    const llm = await startScriptedLLMServer();
    const dirs = [await tempDir(), await tempDir()];
    const replicas: TestServer[] = [];
    try {
      for (const dataDir of dirs) {
        replicas.push(await startTestServer({ dataDir, llm, config: { databaseUrl: database.url } }));
      }
      const [a, b] = replicas as [TestServer, TestServer];
      llm.push(finishReply('first answer'));
      const id = await createConversation(a, { initial_message: { content: 'first task' } });
      await waitFor(
        async () => ((await a.call('GET', `/api/conversations/${id}`)).json as Info).execution_status === 'finished',
      );

      // B never saw the create: it finds the conversation in the shared tables.
      expect((await b.call('GET', `/api/conversations/${id}`)).status).toBe(200);
      const onA = (await a.call('GET', `/api/conversations/${id}/events/search`)).json as { items: Info[] };
      const onB = (await b.call('GET', `/api/conversations/${id}/events/search`)).json as { items: Info[] };
      expect(onB.items).toEqual(onA.items);
      expect((await b.call('GET', `/api/conversations/${id}/agent_final_response`)).json).toEqual({
        response: 'first answer',
      });

      // A socket on B, from index 0, while A runs the next turn: every event once, in order.
      const socket = connectRecording(`${b.url.replace('http', 'ws')}/sockets/events/${id}?resend_all=true`);
      await socket.opened;
      llm.push(finishReply('second answer'));
      const sent = await a.call('POST', `/api/conversations/${id}/events`, {
        content: [{ type: 'text', text: 'again' }],
        run: true,
      });
      expect(sent.status).toBeLessThan(300);
      await waitFor(
        async () =>
          ((await a.call('GET', `/api/conversations/${id}/agent_final_response`)).json as Info).response ===
          'second answer',
      );
      const all = (await a.call('GET', `/api/conversations/${id}/events/search?limit=100`)).json as { items: Info[] };
      await socket.waitFor((frames) => persistedFrames(frames).length >= all.items.length, 60_000);
      const ids = persistedFrames(socket.frames).map((frame) => frame.id);
      expect(ids).toEqual(all.items.map((item) => item.id));
      expect(new Set(ids).size).toBe(ids.length);
      socket.ws.close();

      // Both replicas asked to run it while A runs: B is refused (409), the action runs once.
      llm.push(
        { toolCalls: [{ name: 'terminal', arguments: { command: 'sleep 1; echo once >> ran.txt' } }] },
        finishReply('third answer'),
      );
      await a.call('POST', `/api/conversations/${id}/events`, {
        content: [{ type: 'text', text: 'third' }],
        run: true,
      });
      const onBRun = await b.call('POST', `/api/conversations/${id}/run`);
      expect(onBRun.status).toBe(409);
      await waitFor(
        async () =>
          ((await a.call('GET', `/api/conversations/${id}/agent_final_response`)).json as Info).response ===
          'third answer',
      );
      expect(llm.requests).toHaveLength(4);
    } finally {
      // Each replica's stop() also closes the shared LLM server: the first one does, the rest find it closed.
      for (const replica of replicas) await replica.built.close();
      await llm.close();
      for (const dir of dirs) await removeDir(dir);
    }
  }, 180_000);
});

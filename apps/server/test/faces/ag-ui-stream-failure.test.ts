// A stream that fails after RUN_STARTED (the log cannot be read on: a store gone away) ends with a RUN_ERROR that
// carries a stable `code`, `stream_failed`, as every RUN_ERROR of the face does, read by `@ag-ui/client`'s HttpAgent.
// The failure is injected into the thread's real log, the one part a test cannot make fail on its own.
import { randomUUID } from 'node:crypto';
import type { LogEntry } from '@x/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { runToEnd as run, XAgent } from '../support/ag-ui-agent.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('an AG-UI stream that fails after RUN_STARTED', () => {
  it('ends with RUN_ERROR code stream_failed, its only end', async () => {
    const threadId = randomUUID();
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Hi' });
    server.llm.push(finishReply('Hello.'));
    await run(agent, { forwardedProps: { conversation: createRequest(server.llm) } });

    const log = (await server.built.manager.require(threadId)).log;
    const subscribe = log.subscribe.bind(log);
    // The first entry comes; the next read fails.
    log.subscribe = (fromIndex, options) =>
      (async function* (): AsyncGenerator<LogEntry> {
        for await (const entry of subscribe(fromIndex, options)) {
          yield entry;
          throw new Error('the store went away');
        }
      })();
    try {
      agent.lastEventId = 0;
      const events = await run(agent);
      expect(events[0]).toMatchObject({ type: 'RUN_STARTED', threadId });
      expect(events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'stream_failed', message: 'the store went away' });
      expect(events.filter((event) => event.type === 'RUN_ERROR' || event.type === 'RUN_FINISHED')).toHaveLength(1);
    } finally {
      log.subscribe = subscribe;
    }
  });

  it("hides the server's directories in the RUN_ERROR's message (a store error names the file it failed on)", async () => {
    const threadId = randomUUID();
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Hi' });
    server.llm.push(finishReply('Hello.'));
    await run(agent, { forwardedProps: { conversation: createRequest(server.llm) } });

    const log = (await server.built.manager.require(threadId)).log;
    const subscribe = log.subscribe.bind(log);
    const file = `${server.dataDir}/conversations/${threadId.replace(/-/g, '')}/events/event-00001.json`;
    log.subscribe = (fromIndex, options) =>
      (async function* (): AsyncGenerator<LogEntry> {
        for await (const entry of subscribe(fromIndex, options)) {
          yield entry;
          throw new Error(`ENOENT: no such file or directory, open '${file}'`);
        }
      })();
    try {
      agent.lastEventId = 0;
      const events = await run(agent);
      expect(events.at(-1)).toMatchObject({
        type: 'RUN_ERROR',
        code: 'stream_failed',
        message: "ENOENT: no such file or directory, open '<server path>'",
      });
    } finally {
      log.subscribe = subscribe;
    }
  });
});

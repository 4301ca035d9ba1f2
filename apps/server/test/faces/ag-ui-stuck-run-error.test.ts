// A run the stuck detector stopped records no error of its own, only the status: judged by `@ag-ui/client`'s
// HttpAgent against a real server, its RUN_ERROR (code `stuck`) says the run ended stuck, never the text of another
// error the stream carried before (here the thread's MCP server that failed to start, logged as a
// ConversationErrorEvent when the thread was made), which has nothing to do with how the run ended: neither on the
// run's own stream nor on a client's that reattaches from the thread's start.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { runToEnd, XAgent } from '../support/ag-ui-agent.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('an AG-UI run that ended stuck', () => {
  it('is a RUN_ERROR saying so, not the text of an earlier error of the stream', async () => {
    const threadId = randomUUID();
    // The same command answered the same way four times over: the detector's action/observation loop.
    const same = { toolCalls: [{ name: 'terminal', arguments: { command: 'echo same-again' } }] };
    server.llm.push(same, same, same, same);
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'loop' });
    const create = createRequest(server.llm);
    const events = await runToEnd(agent, {
      forwardedProps: {
        conversation: {
          ...create,
          agent: { ...(create.agent as object), mcp_config: { broken: { command: '/nonexistent/mcp-server' } } },
        },
      },
    });

    const conversation = await (await server.built.manager.require(threadId)).open();
    expect(conversation.state.execution_status).toBe('stuck');
    const logged = await conversation.log.range(0, conversation.log.length);
    expect(logged.filter((event) => event.kind === 'ConversationErrorEvent')).toHaveLength(1);
    const stuck = { type: 'RUN_ERROR', code: 'stuck', message: "The run ended with status 'stuck'" };
    expect(events.at(-1)).toEqual(stuck);

    const reattached = new XAgent(server.url, threadId);
    reattached.lastEventId = 0;
    expect((await runToEnd(reattached)).at(-1)).toEqual(stuck);
  });
});

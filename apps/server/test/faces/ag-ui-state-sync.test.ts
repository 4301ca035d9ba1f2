// A client that syncs its shared state on every change (a bare re-run per keystroke, through `@ag-ui/client`'s
// HttpAgent) against `x serve` and its scripted model: each change is a session-state update, streamed as a patch,
// but none is a message for the model; the model reads the latest state once, with the next message, and a state the
// model's messages already hold is not given again.
import { randomUUID } from 'node:crypto';
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

async function logOf(threadId: string) {
  const conversation = await (await server.built.manager.require(threadId)).open();
  return conversation.log.range(0, conversation.log.length);
}

/** How many times the model's last request holds a shared state, and the JSON of the last one. */
function sharedStatesOfLastRequest(): { count: number; last: string | undefined } {
  const json = JSON.stringify(server.llm.requests.at(-1)?.messages ?? []);
  const states = [...json.matchAll(/as JSON:\\n(.*?)\\n<\/shared_state>/g)].map((match) => match[1]);
  return { count: states.length, last: states.at(-1) };
}

describe('AG-UI state synced on every change', () => {
  it('records each change as a state update only, and gives the model the latest state once, with the next message', async () => {
    const threadId = randomUUID();
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Help me write' });
    server.llm.push(finishReply('Sure.'));
    agent.state = { draft: '' };
    await run(agent, { forwardedProps: { conversation: createRequest(server.llm) } });
    const requests = server.llm.requests.length;
    const before = await logOf(threadId);

    // A keystroke each: a bare re-run with the state changed.
    for (const draft of ['H', 'He', 'Hel', 'Hell', 'Hello']) {
      agent.state = { draft };
      const events = await run(agent);
      expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
      expect(events.find((event) => event.type === 'STATE_DELTA')).toMatchObject({
        delta: [{ op: 'add', path: '/draft', value: draft }],
      });
    }
    const after = await logOf(threadId);
    const added = after.slice(before.length);
    expect(added.map((event) => event.kind)).toEqual(Array(5).fill('ConversationStateUpdateEvent'));
    expect(server.llm.requests.length).toBe(requests);

    // The next message: the model has the latest state, and only it besides the first run's.
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Is my draft good?' });
    server.llm.push(finishReply('Yes.'));
    await run(agent);
    expect(sharedStatesOfLastRequest()).toEqual({ count: 2, last: '{\\"draft\\":\\"Hello\\"}' });

    // The same state with the message after: the model's messages hold it already.
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Thanks' });
    server.llm.push(finishReply('Welcome.'));
    await run(agent);
    expect(sharedStatesOfLastRequest()).toEqual({ count: 2, last: '{\\"draft\\":\\"Hello\\"}' });
  });
});

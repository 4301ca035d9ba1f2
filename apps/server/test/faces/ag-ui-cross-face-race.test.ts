// A run another face asks for on a thread at the moment an AG-UI run input's message is recorded (after the face found
// the thread not running, before it started the input's run), through `@ag-ui/client`'s HttpAgent against a real
// server: the input claimed the thread's run with that check, so its own run answers it (its stream ends with
// RUN_FINISHED, not a RUN_ERROR after the message was recorded), and the other face's run is refused as any run asked
// for during a run is (409). The other run is asked for as REST `/run` asks (`ManagedConversation.startRun`), from a
// subscriber to the conversation's events, at the exact moment the message is recorded: no timing is involved.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { runToEnd, XAgent } from '../support/ag-ui-agent.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('an AG-UI input recorded as another face asks for a run', () => {
  it("is answered by the input's own run; the other face's run is refused", async () => {
    const threadId = randomUUID();
    const agent = new XAgent(server.url, threadId);
    server.llm.push(finishReply('First.'));
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Start' });
    await agent.runAgent({ forwardedProps: { conversation: createRequest(server.llm) } });

    const managed = await server.built.manager.require(threadId);
    const conversation = await managed.open();
    let otherRun: Promise<void> | undefined;
    const unsubscribe = conversation.subscribe((event, index) => {
      const said = event.kind === 'MessageEvent' && event.source === 'user' ? event.llm_message.content : [];
      if (otherRun !== undefined || index === undefined) return;
      if (!said.some((part) => part.type === 'text' && part.text === 'Raced')) return;
      otherRun = managed.startRun();
      // Checked once the input's stream has ended: not an unhandled rejection meanwhile.
      otherRun.catch(() => undefined);
    });
    // One reply: the input's run answers it, and no other run follows.
    server.llm.push(finishReply('Answered by its own run.'));
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Raced' });
    const events = await runToEnd(agent);
    unsubscribe();

    expect(otherRun).toBeDefined();
    await expect(otherRun).rejects.toMatchObject({ statusCode: 409 });
    expect(events.map((event) => event.type)).toContain('RUN_FINISHED');
    expect(events.map((event) => event.type)).not.toContain('RUN_ERROR');
    expect(JSON.stringify(server.llm.requests.at(-1))).toContain('Raced');
    expect(server.llm.requests).toHaveLength(2);
  });
});

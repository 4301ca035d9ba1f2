// `abortRun` and the run after it, judged by `@ag-ui/client`'s HttpAgent against a real server: an abort ends the
// client's run on its own side with no verification error, the server's run goes on (a dropped connection and an abort
// look the same to it; `Last-Event-ID` reattaches), and a second run on the same thread, started while that run still
// goes on, adds its message to it (the model's next call sees it) and streams the rest to a clean RUN_FINISHED, each
// message recorded once.
import { randomUUID } from 'node:crypto';
import type { BaseEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer, waitFor } from '../helpers.js';
import { collect, XAgent } from '../support/ag-ui-agent.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('abortRun, then another run on the thread', () => {
  it('ends the aborted run on the client without an error, and the next run joins the one still going', async () => {
    const threadId = randomUUID();
    const held = gate();
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo step-one' } }] },
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo step-two' } }], gate: held.promise },
      finishReply('Both done, and hi.'),
    );
    const agent = new XAgent(server.url, threadId);
    const failures: Error[] = [];
    agent.subscribe({ onRunFailed: ({ error }) => void failures.push(error) });
    const first = collect(agent);
    let stopped = false;
    agent.subscribe({
      onToolCallResultEvent: () => {
        // Step one is done and the model is held at the gate: the user presses stop.
        if (!stopped) agent.abortRun();
        stopped = true;
      },
    });
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Do step one, then wait' });
    await agent.runAgent({ forwardedProps: { conversation: createRequest(server.llm) } });
    expect(failures).toEqual([]);
    expect(first.filter((event) => event.type === 'RUN_FINISHED')).toEqual([]);
    const managed = await server.built.manager.require(threadId);
    expect(managed.isRunning).toBe(true);

    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Also say hi' });
    const second: BaseEvent[] = collect(agent);
    const run = agent.runAgent();
    await waitFor(async () => second.some((event) => event.type === 'RUN_STARTED'));
    held.open();
    await run;
    expect(failures).toEqual([]);
    expect(second.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    // The second run streamed the rest of the thread's run: step two and the answer.
    expect(
      second
        .filter((event) => event.type === 'TOOL_CALL_START')
        .map((event) => (event as unknown as { toolCallName: string }).toolCallName),
    ).toEqual(['terminal', 'finish']);
    // The model's next call saw the message the second run brought.
    expect(JSON.stringify(server.llm.requests.at(-1)?.messages)).toContain('Also say hi');
    const conversation = await managed.open();
    const users = (await conversation.log.range(0, conversation.log.length)).filter(
      (event) => event.kind === 'MessageEvent' && event.source === 'user',
    );
    expect(users).toHaveLength(2);
  });
});

// How long a run input's frontend tools are offered, judged by `@ag-ui/client`'s HttpAgent against `x serve`: for the
// run the input starts or joins (README: "offered to the model for the run"), not after it. A run another face starts
// later on the thread (REST here; A2A, MCP and the OpenAI gateway alike) must not offer the model tools only an AG-UI
// client can run: a call to one would leave that run waiting for a result its client can never give.
import { randomUUID } from 'node:crypto';
import type { Tool } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRequest,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  waitFor,
  waitForIdle,
} from '../helpers.js';
import { runToEnd as run, XAgent } from '../support/ag-ui-agent.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const pickColor: Tool = {
  name: 'pick_color',
  description: 'Lets the user pick a color in the browser',
  parameters: { type: 'object', properties: {} },
};

/** The tool names the model was offered in its latest request. */
const offeredTools = (): string[] =>
  ((server.llm.requests.at(-1)?.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);

async function restTurn(threadId: string, text: string): Promise<void> {
  const { status } = await server.call('POST', `/api/conversations/${threadId}/events`, {
    role: 'user',
    content: [{ type: 'text', text }],
    run: true,
  });
  expect(status).toBe(200);
  await waitForIdle(server, threadId);
}

describe('frontend tools', () => {
  it('are offered for the AG-UI run, and not to a run another face starts after it', async () => {
    const threadId = randomUUID();
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Hello' });
    server.llm.push(finishReply('Hi.'));
    const events = await run(agent, {
      tools: [pickColor],
      forwardedProps: { conversation: createRequest(server.llm) },
    });
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(offeredTools()).toContain('pick_color');

    server.llm.push(finishReply('Done.'));
    await restTurn(threadId, 'From the REST API');
    expect(offeredTools()).not.toContain('pick_color');
  });

  it('are offered again by the next AG-UI input that brings them, and the call’s result is still recorded', async () => {
    const threadId = randomUUID();
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Pick for me' });
    server.llm.push({ toolCalls: [{ id: 'call_pick', name: 'pick_color', arguments: {} }] });
    await run(agent, { tools: [pickColor], forwardedProps: { conversation: createRequest(server.llm) } });
    // The run ended waiting for the client: its tools are no longer offered, the call still waits for its result.
    await waitFor(async () => server.built.manager.clientTools.get(threadId).length === 0, 10_000);

    server.llm.push(finishReply('Red.'));
    agent.addMessage({ id: randomUUID(), role: 'tool', toolCallId: 'call_pick', content: 'red' });
    const second = await run(agent, { tools: [pickColor] });
    expect(second.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(offeredTools()).toContain('pick_color');
    expect(JSON.stringify(server.llm.requests.at(-1)?.messages)).toContain('red');
  });
});

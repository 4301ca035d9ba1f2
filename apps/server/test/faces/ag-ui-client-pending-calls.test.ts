// Which frontend tool calls a finished run leaves to the client, as `@ag-ui/client`'s HttpAgent reports them
// (`onRunFinishedEvent`'s `pendingToolCallIds`) against a real server: the RUN_FINISHED outcome names them, so a
// client that reattaches after the calls were streamed (a reload, a dropped connection) still learns what waits for it,
// where deriving the list from its own stream would find nothing.
import { randomUUID } from 'node:crypto';
import type { Tool } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { collect, XAgent } from '../support/ag-ui-agent.js';

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

/** Runs and returns the pending tool call ids the client's `onRunFinishedEvent` was given. */
async function pendingAfter(agent: XAgent, parameters: Parameters<XAgent['runAgent']>[0]): Promise<string[]> {
  let pending: string[] | undefined;
  agent.subscribe({
    onRunFinishedEvent: (params) => {
      if (params.outcome === 'success') pending = params.pendingToolCallIds;
    },
  });
  await agent.runAgent(parameters);
  if (pending === undefined) throw new Error('the run did not finish with outcome success');
  return pending;
}

describe('frontend calls left to the client', () => {
  it('are named by the outcome, for the client that saw them and for one that reattaches after them', async () => {
    const threadId = randomUUID();
    server.llm.push({ toolCalls: [{ id: 'call_pick', name: 'pick_color', arguments: {} }] });
    const agent = new XAgent(server.url, threadId);
    const events = collect(agent);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Let me choose a color' });
    const seen = await pendingAfter(agent, {
      tools: [pickColor],
      forwardedProps: { conversation: createRequest(server.llm) },
    });
    expect(seen).toEqual(['call_pick']);

    // A second client (a reloaded page) reattaches after the last event of the run: its stream has no tool call.
    const managed = await server.built.manager.require(threadId);
    const reloaded = new XAgent(server.url, threadId);
    reloaded.lastEventId = managed.log.length - 1;
    const reattached = collect(reloaded);
    const pending = await pendingAfter(reloaded, { tools: [pickColor] });
    expect(reattached.some((event) => event.type === 'TOOL_CALL_START')).toBe(false);
    expect(pending).toEqual(['call_pick']);
    expect(events.at(-1)).toMatchObject({ outcome: { type: 'success', pendingToolCallIds: ['call_pick'] } });
  });
});

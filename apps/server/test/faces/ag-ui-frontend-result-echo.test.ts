// A frontend tool's result, judged by `@ag-ui/client`'s HttpAgent against `x serve`: the client adds its own
// `role: "tool"` message for the call and sends it; the run that input starts must not stream the same result back as
// a TOOL_CALL_RESULT, which the client's reducer would add as a second tool message for the one call. A client that
// did not send it (one reattaching from before it) still gets it from the log.
import { randomUUID } from 'node:crypto';
import type { BaseEvent, Message, Tool } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer } from '../helpers.js';
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

const toolMessagesOf = (messages: readonly Message[], callId: string): Message[] =>
  messages.filter((message) => message.role === 'tool' && message.toolCallId === callId);

const resultsIn = (events: readonly BaseEvent[]): unknown[] =>
  events.filter((event) => event.type === 'TOOL_CALL_RESULT');

/** A thread whose model called `pick_color` (call id `callId`); the client has answered it and run again. */
async function answeredThread(
  callId: string,
  answer: { content: string; error?: string },
): Promise<{ agent: XAgent; threadId: string; second: BaseEvent[] }> {
  const threadId = randomUUID();
  server.llm.push({ toolCalls: [{ id: callId, name: 'pick_color', arguments: {} }] });
  const agent = new XAgent(server.url, threadId);
  agent.addMessage({ id: randomUUID(), role: 'user', content: 'Help me choose a color' });
  await run(agent, { tools: [pickColor], forwardedProps: { conversation: createRequest(server.llm) } });
  server.llm.push({ content: 'Noted.' });
  agent.addMessage({ id: randomUUID(), role: 'tool', toolCallId: callId, ...answer });
  const second = await run(agent, { tools: [pickColor] });
  return { agent, threadId, second };
}

describe('a frontend tool result the client sent', () => {
  it('is not streamed back to it: its thread holds one tool message for the call', async () => {
    const { agent, second } = await answeredThread('call_once', { content: 'red' });
    expect(second.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(resultsIn(second)).toEqual([]);
    expect(toolMessagesOf(agent.messages, 'call_once')).toHaveLength(1);
    expect(agent.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('is not streamed back when it is an error either', async () => {
    const { agent, second } = await answeredThread('call_failed', { content: '', error: 'The user closed the picker' });
    expect(resultsIn(second)).toEqual([]);
    expect(toolMessagesOf(agent.messages, 'call_failed')).toHaveLength(1);
  });

  it('reaches a client that reattaches from before it, from the log', async () => {
    const { threadId } = await answeredThread('call_seen', { content: 'blue' });
    const conversation = await server.built.manager.require(threadId);
    const events = await conversation.log.range(0, conversation.log.length);
    const before = events.findIndex((event) => event.kind === 'ObservationEvent') - 1;
    const other = new XAgent(server.url, threadId);
    other.lastEventId = before;
    const replayed = await run(other);
    expect(resultsIn(replayed)).toEqual([
      expect.objectContaining({ toolCallId: 'call_seen', content: 'blue', role: 'tool' }),
    ]);
  });

  it('keeps the next run on the thread taking only the new message', async () => {
    const { agent, threadId } = await answeredThread('call_next', { content: 'green' });
    server.llm.push({ content: 'Green again.' });
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'And again?' });
    const third = await run(agent, { tools: [pickColor] });
    expect(third.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    const conversation = await server.built.manager.require(threadId);
    const events = await conversation.log.range(0, conversation.log.length);
    const userTexts = events
      .filter((event) => event.kind === 'MessageEvent' && event.source === 'user')
      .map((event) => JSON.stringify((event as { llm_message: unknown }).llm_message));
    expect(userTexts).toHaveLength(2);
    expect(userTexts[1]).toContain('And again?');
  });
});

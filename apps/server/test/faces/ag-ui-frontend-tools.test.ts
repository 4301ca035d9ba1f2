// Frontend tools through the AG-UI face, judged by `@ag-ui/client`'s HttpAgent against `x serve`: the run input's
// tools are offered to the model; a call to one ends the run with the call pending (never run on the server); the
// client's `role: "tool"` message answers it, recorded as its observation, and the run goes on. Bad inputs get a
// typed RUN_ERROR and change nothing.
import { randomUUID } from 'node:crypto';
import type { BaseEvent, Tool } from '@ag-ui/core';
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

const pickColor: Tool = {
  name: 'pick_color',
  description: 'Lets the user pick a color in the browser',
  parameters: { type: 'object', properties: { palette: { type: 'string', enum: ['warm', 'cold'] } } },
};

async function logOf(threadId: string) {
  const conversation = await (await server.built.manager.require(threadId)).open();
  return { conversation, events: await conversation.log.range(0, conversation.log.length) };
}

/** A thread whose model called `pick_color` (call id `callId`): the run ended waiting for the client. */
async function threadWaitingForColor(callId: string): Promise<{ agent: XAgent; threadId: string; first: BaseEvent[] }> {
  const threadId = randomUUID();
  server.llm.push({ toolCalls: [{ id: callId, name: 'pick_color', arguments: { palette: 'warm' } }] });
  const agent = new XAgent(server.url, threadId);
  agent.addMessage({ id: randomUUID(), role: 'user', content: 'Help me choose a color' });
  const first = await run(agent, { tools: [pickColor], forwardedProps: { conversation: createRequest(server.llm) } });
  return { agent, threadId, first };
}

describe('AG-UI frontend tools', () => {
  it('offers the tools, ends the run at their call, and continues with the client’s result', async () => {
    const { agent, threadId, first } = await threadWaitingForColor('call_color');
    const tools = (server.llm.requests.at(-1)?.tools ?? []) as { function: { name: string; parameters: unknown } }[];
    const offered = tools.find((tool) => tool.function.name === 'pick_color');
    expect(offered?.function.parameters).toMatchObject({ properties: { palette: { enum: ['warm', 'cold'] } } });
    // No result: the call is the client's to run.
    expect(first.map((event) => event.type).filter((type) => !type.startsWith('STATE_'))).toEqual([
      'RUN_STARTED',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'RUN_FINISHED',
    ]);
    expect(first.find((event) => event.type === 'TOOL_CALL_START')).toMatchObject({
      toolCallId: 'call_color',
      toolCallName: 'pick_color',
    });
    expect(first.at(-1)).toMatchObject({ outcome: { type: 'success' } });
    const waiting = await logOf(threadId);
    expect(waiting.conversation.state.execution_status).toBe('waiting_for_confirmation');
    expect(waiting.events.some((event) => event.kind === 'ObservationEvent')).toBe(false);

    server.llm.push(finishReply('Red it is.'));
    agent.addMessage({ id: randomUUID(), role: 'tool', toolCallId: 'call_color', content: 'red' });
    const second = await run(agent, { tools: [pickColor] });
    expect(second.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    const { conversation, events } = await logOf(threadId);
    const observation = events.find((event) => event.kind === 'ObservationEvent');
    expect(observation).toMatchObject({
      tool_name: 'pick_color',
      tool_call_id: 'call_color',
      observation: { kind: 'ClientToolObservation', content: [{ type: 'text', text: 'red' }], is_error: false },
    });
    expect(JSON.stringify(server.llm.requests.at(-1)?.messages)).toContain('red');
    expect(conversation.state.execution_status).toBe('finished');
  });

  it('refuses a frontend tool named like a server tool with a typed RUN_ERROR', async () => {
    const threadId = randomUUID();
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Hi' });
    const events = await run(agent, {
      tools: [{ name: 'terminal', description: 'mine', parameters: { type: 'object' } }],
      forwardedProps: { conversation: createRequest(server.llm) },
    });
    expect(events).toEqual([
      expect.objectContaining({
        type: 'RUN_ERROR',
        code: 'tool_name_clash',
        message: expect.stringContaining("'terminal'"),
      }),
    ]);
    const { events: logged } = await logOf(threadId);
    expect(logged.some((event) => event.kind === 'MessageEvent' && event.source === 'user')).toBe(false);
  });

  it('refuses a result for an unknown call, and a run that ignores the pending call, losing nothing', async () => {
    const { agent, threadId } = await threadWaitingForColor('call_wait');
    const before = (await logOf(threadId)).events.length;

    const unknown = new XAgent(server.url, threadId);
    unknown.messages = [...agent.messages, { id: randomUUID(), role: 'tool', toolCallId: 'call_nope', content: 'x' }];
    expect(await run(unknown, { tools: [pickColor] })).toEqual([
      expect.objectContaining({
        type: 'RUN_ERROR',
        code: 'unknown_tool_call',
        message: expect.stringContaining('call_nope'),
      }),
    ]);

    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Never mind the color' });
    const ignored = await run(agent, { tools: [pickColor] });
    expect(ignored).toEqual([
      expect.objectContaining({
        type: 'RUN_ERROR',
        code: 'pending_tool_call',
        message: expect.stringContaining('call_wait'),
      }),
    ]);
    expect((await logOf(threadId)).events.length).toBe(before);

    // The call is still answerable, and the user message that was refused goes with its result.
    server.llm.push(finishReply('Noted.'));
    agent.addMessage({ id: randomUUID(), role: 'tool', toolCallId: 'call_wait', content: 'blue' });
    const answered = await run(agent, { tools: [pickColor] });
    expect(answered.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    const { events } = await logOf(threadId);
    expect(events.find((event) => event.kind === 'ObservationEvent')).toMatchObject({ tool_call_id: 'call_wait' });
    expect(JSON.stringify(server.llm.requests.at(-1)?.messages)).toContain('Never mind the color');
  });
});

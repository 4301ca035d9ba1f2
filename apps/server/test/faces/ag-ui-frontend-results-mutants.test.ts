// What the AG-UI face does with frontend tools and their results at the edges, judged by `@ag-ui/client`'s HttpAgent
// (and plain HTTP where the client would refuse to send the input) against `x serve`: a tool list naming a tool twice
// or with a non-object schema is refused; a client's error is recorded as the call's failed observation; a result the
// thread already has (sent again by a client that missed the run's events) is skipped, while a result for a call that
// is not a frontend call waiting for it (no call id, an unknown one, a server tool's call awaiting confirmation) is
// refused, recording nothing.
import { randomUUID } from 'node:crypto';
import type { Message, Tool } from '@ag-ui/core';
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
  parameters: { type: 'object', properties: {} },
};

async function logOf(threadId: string) {
  const conversation = await (await server.built.manager.require(threadId)).open();
  return conversation.log.range(0, conversation.log.length);
}

/** A thread whose model called `pick_color` as `callId`: its run ended waiting for the client's result. */
async function threadWaitingForColor(callId: string): Promise<{ agent: XAgent; threadId: string }> {
  const threadId = randomUUID();
  server.llm.push({ toolCalls: [{ id: callId, name: 'pick_color', arguments: {} }] });
  const agent = new XAgent(server.url, threadId);
  agent.addMessage({ id: randomUUID(), role: 'user', content: 'Help me choose a color' });
  await run(agent, { tools: [pickColor], forwardedProps: { conversation: createRequest(server.llm) } });
  return { agent, threadId };
}

/** Posts a run input as plain JSON (the client checks its messages itself) and returns the stream's events. */
async function post(input: Record<string, unknown>): Promise<unknown[]> {
  const response = await fetch(`${server.url}/api/ag-ui`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ runId: randomUUID(), tools: [], context: [], ...input }),
  });
  expect(response.status).toBe(200);
  return (await response.text())
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)));
}

const runError = (code: string, text: string) => [
  expect.objectContaining({ type: 'RUN_ERROR', code, message: expect.stringContaining(text) }),
];

describe('AG-UI frontend tools at the edges', () => {
  it('refuses a tool offered twice, and one whose parameters are not an object schema, recording nothing', async () => {
    const cases: { tools: Tool[]; code: string; text: string }[] = [
      { tools: [pickColor, { ...pickColor, description: 'again' }], code: 'tool_name_clash', text: 'twice' },
      { tools: [{ ...pickColor, parameters: { type: 'string' } }], code: 'invalid_tool', text: 'tools[0]' },
    ];
    for (const { tools, code, text } of cases) {
      const threadId = randomUUID();
      const agent = new XAgent(server.url, threadId);
      agent.addMessage({ id: randomUUID(), role: 'user', content: 'Hi' });
      const events = await run(agent, { tools, forwardedProps: { conversation: createRequest(server.llm) } });
      expect(events).toEqual(runError(code, text));
      expect((await logOf(threadId)).some((event) => event.kind === 'MessageEvent')).toBe(false);
    }
  });

  it('records the client’s error as the call’s failed observation, which the model reads', async () => {
    const { agent, threadId } = await threadWaitingForColor('call_broken');
    server.llm.push(finishReply('Sorry about the picker.'));
    agent.addMessage({
      id: randomUUID(),
      role: 'tool',
      toolCallId: 'call_broken',
      content: '',
      error: 'The user closed the picker',
    });
    const events = await run(agent, { tools: [pickColor] });
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect((await logOf(threadId)).find((event) => event.kind === 'ObservationEvent')).toMatchObject({
      tool_call_id: 'call_broken',
      observation: {
        kind: 'ClientToolObservation',
        content: [{ type: 'text', text: 'The user closed the picker' }],
        is_error: true,
      },
    });
    expect(JSON.stringify(server.llm.requests.at(-1)?.messages)).toContain('The user closed the picker');
  });

  it('skips a result the thread already has, and refuses one for an unknown call, once results are logged', async () => {
    const { agent, threadId } = await threadWaitingForColor('call_once');
    // What a client has when its connection drops right after sending the result: the run's events never reach it.
    const history: Message[] = [
      ...agent.messages,
      // An empty `error` is no error: the content is the result.
      { id: randomUUID(), role: 'tool', toolCallId: 'call_once', content: 'green', error: '' },
    ];
    server.llm.push(finishReply('Green.'));
    agent.messages = [...history];
    expect((await run(agent, { tools: [pickColor] })).at(-1)).toMatchObject({ type: 'RUN_FINISHED' });

    const stale = new XAgent(server.url, threadId);
    stale.messages = [...history, { id: randomUUID(), role: 'user', content: 'One more thing' }];
    server.llm.push(finishReply('Sure.'));
    const events = await run(stale, { tools: [pickColor] });
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    const logged = await logOf(threadId);
    const observations = logged.filter(
      (event) => event.kind === 'ObservationEvent' && event.tool_name === 'pick_color',
    );
    expect(observations).toHaveLength(1);
    expect(observations[0]).toMatchObject({
      tool_call_id: 'call_once',
      observation: { content: [{ type: 'text', text: 'green' }], is_error: false },
    });
    expect(JSON.stringify(server.llm.requests.at(-1)?.messages)).toContain('One more thing');

    const before = (await logOf(threadId)).length;
    const unknown = new XAgent(server.url, threadId);
    unknown.messages = [...stale.messages, { id: randomUUID(), role: 'tool', toolCallId: 'call_nope', content: 'x' }];
    expect(await run(unknown, { tools: [pickColor] })).toEqual(runError('unknown_tool_call', "'call_nope'"));
    expect((await logOf(threadId)).length).toBe(before);
  });

  it('refuses a result with no call id, or for a server tool’s call awaiting confirmation, recording nothing', async () => {
    const threadId = randomUUID();
    server.llm.push({ toolCalls: [{ id: 'call_risky', name: 'terminal', arguments: { command: 'echo risky' } }] });
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Do the risky thing' });
    const first = await run(agent, {
      forwardedProps: {
        conversation: createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } }),
      },
    });
    expect(first.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
    const before = (await logOf(threadId)).length;

    const answered = new XAgent(server.url, threadId);
    answered.messages = [
      ...agent.messages,
      { id: randomUUID(), role: 'tool', toolCallId: 'call_risky', content: 'ok' },
    ];
    expect(await run(answered)).toEqual(runError('unknown_tool_call', "'call_risky'"));

    const anonymous = await post({
      threadId,
      messages: [...agent.messages, { id: randomUUID(), role: 'tool', content: 'ok' }],
    });
    expect(anonymous).toEqual(runError('unknown_tool_call', "answers tool call ''"));
    expect((await logOf(threadId)).length).toBe(before);
  });
});

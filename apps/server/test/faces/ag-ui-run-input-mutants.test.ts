// How the AG-UI face applies a run input, judged by `@ag-ui/client`'s HttpAgent against `x serve` and its scripted
// OpenAI-protocol model: a new thread's history of several user messages is recorded whole, in order, with the
// context and the shared state (one key is enough) on the last; a frontend call's result is recorded after a server
// restart even when the input no longer offers the tool (the server keeps no client tools across a restart).
import { randomUUID } from 'node:crypto';
import type { Tool } from '@ag-ui/core';
import { startScriptedLLMServer } from '@x/agent/testing';
import type { MessageEvent } from '@x/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer, tempDir } from '../helpers.js';
import { runToEnd as run, XAgent } from '../support/ag-ui-agent.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('AG-UI run input', () => {
  it('records each user message of a new thread’s history in order, the context and a one-key state on the last', async () => {
    const threadId = randomUUID();
    const agent = new XAgent(server.url, threadId);
    agent.messages = [
      { id: randomUUID(), role: 'user', content: 'My name is Ada.' },
      { id: randomUUID(), role: 'user', content: 'What is my name?' },
    ];
    agent.state = { plan: 'pro' };
    const requests = server.llm.requests.length;
    server.llm.push(finishReply('Ada.'));
    const events = await run(agent, {
      context: [{ description: 'The page the user is on', value: '/profile' }],
      forwardedProps: { conversation: createRequest(server.llm) },
    });
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });

    // One model call, which read both messages in order, then what the run brought.
    expect(server.llm.requests.length).toBe(requests + 1);
    const sent = (server.llm.requests.at(-1)?.messages ?? []) as { role: string; content: { text?: string }[] }[];
    const texts = sent.filter((message) => message.role === 'user').flatMap((message) => message.content);
    expect(texts.map((part) => part.text)).toEqual([
      'My name is Ada.',
      'What is my name?',
      expect.stringContaining('The page the user is on:\n/profile'),
      expect.stringMatching(/^<shared_state>\n[\s\S]*\{"plan":"pro"\}/),
    ]);

    const conversation = await (await server.built.manager.require(threadId)).open();
    const logged = await conversation.log.range(0, conversation.log.length);
    const userMessages = logged.filter(
      (event): event is MessageEvent => event.kind === 'MessageEvent' && event.source === 'user',
    );
    // The context and the shared state are recorded on the last message only.
    const own = (event: MessageEvent) => event.llm_message.content.map((part) => ('text' in part ? part.text : ''));
    expect(userMessages.map((event) => [own(event).join(''), event.extended_content.length])).toEqual([
      ['My name is Ada.', 0],
      ['What is my name?', 2],
    ]);
  });

  it('records a frontend call’s result after a restart, from an input that no longer offers the tool', async () => {
    const llm = await startScriptedLLMServer();
    const dataDir = await tempDir();
    const pickColor: Tool = { name: 'pick_color', description: 'Picks a color', parameters: { type: 'object' } };
    const threadId = randomUUID();
    const before = await startTestServer({ dataDir, llm });
    const agent = new XAgent(before.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Help me choose a color' });
    llm.push({ toolCalls: [{ id: 'call_restart', name: 'pick_color', arguments: {} }] });
    await run(agent, { tools: [pickColor], forwardedProps: { conversation: createRequest(llm) } });
    await before.built.close();

    const after = await startTestServer({ dataDir, llm });
    try {
      const resumed = new XAgent(after.url, threadId);
      resumed.messages = [
        ...agent.messages,
        { id: randomUUID(), role: 'tool', toolCallId: 'call_restart', content: 'red' },
      ];
      llm.push(finishReply('Red it is.'));
      const events = await run(resumed);
      expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      const conversation = await (await after.built.manager.require(threadId)).open();
      const logged = await conversation.log.range(0, conversation.log.length);
      expect(logged.find((event) => event.kind === 'ObservationEvent')).toMatchObject({
        tool_call_id: 'call_restart',
        observation: { kind: 'ClientToolObservation', content: [{ type: 'text', text: 'red' }], is_error: false },
      });
      // The model read the result, and was not offered the tool this input left out.
      const request = llm.requests.at(-1);
      expect(JSON.stringify(request?.messages)).toContain('red');
      const offered = ((request?.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);
      expect(offered).not.toContain('pick_color');
    } finally {
      await after.stop();
      await removeDir(dataDir);
    }
  });
});

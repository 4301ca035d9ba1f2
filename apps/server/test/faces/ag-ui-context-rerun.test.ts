// The run input's `context` in runs that bring no new user message (only a frontend tool's result, or nothing: a bare
// re-run), judged by `@ag-ui/client`'s HttpAgent against `x serve` and its scripted OpenAI-protocol model: a context
// the model has not seen is recorded on a user message of no text (its `extended_content`, as the context of a user
// message is) and is in the model's next request; one it has seen (the last recorded) is not recorded again.
import { randomUUID } from 'node:crypto';
import type { Context, Tool } from '@ag-ui/core';
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

const page = (path: string): Context[] => [{ description: 'The page the user is on', value: path }];

async function loggedEvents(threadId: string) {
  const conversation = await (await server.built.manager.require(threadId)).open();
  return conversation.log.range(0, conversation.log.length);
}

/** The user messages of the log that carry a context, as `[text, context]` pairs. */
async function contextMessages(threadId: string): Promise<[string, string][]> {
  return (await loggedEvents(threadId)).flatMap((event) => {
    if (event.kind !== 'MessageEvent' || event.source !== 'user') return [];
    const context = event.extended_content.find((part) => part.text.startsWith('<context>'));
    if (context === undefined) return [];
    return [[event.llm_message.content.map((part) => ('text' in part ? part.text : '')).join(''), context.text]];
  });
}

/** The model's last request: its messages as JSON, and how often `text` occurs in it. */
function lastRequest(): { json: string; count: (text: string) => number } {
  const json = JSON.stringify(server.llm.requests.at(-1)?.messages ?? []);
  return { json, count: (text) => json.split(text).length - 1 };
}

/** The messages of the model's last request after its last tool message (what the run added after the result). */
function afterLastToolMessage(): string {
  const messages = (server.llm.requests.at(-1)?.messages ?? []) as { role: string }[];
  const last = messages.findLastIndex((message) => message.role === 'tool');
  return JSON.stringify(messages.slice(last + 1));
}

describe('AG-UI context without a new user message', () => {
  it('gives a new context to the model with a frontend tool’s result, once, and records it', async () => {
    const threadId = randomUUID();
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Help me choose a color' });
    server.llm.push({ toolCalls: [{ id: 'call_first', name: 'pick_color', arguments: {} }] });
    await run(agent, {
      tools: [pickColor],
      context: page('/palette'),
      forwardedProps: { conversation: createRequest(server.llm) },
    });
    expect(await contextMessages(threadId)).toEqual([['Help me choose a color', expect.stringContaining('/palette')]]);

    // The result alone, with a context that changed, and shared state: the model reads both after the result.
    agent.addMessage({ id: randomUUID(), role: 'tool', toolCallId: 'call_first', content: 'red' });
    agent.state = { mode: 'warm' };
    server.llm.push({ toolCalls: [{ id: 'call_second', name: 'pick_color', arguments: {} }] });
    const second = await run(agent, { tools: [pickColor], context: page('/checkout') });
    expect(second.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(afterLastToolMessage()).toContain('The page the user is on:\\n/checkout');
    expect(afterLastToolMessage()).toContain('{\\"mode\\":\\"warm\\"}');
    expect(await contextMessages(threadId)).toEqual([
      ['Help me choose a color', expect.stringContaining('/palette')],
      ['', expect.stringContaining('/checkout')],
    ]);
    // The client's first message was not taken for a new one (the call's assistant message has a log event's id).
    expect(lastRequest().count('Help me choose a color')).toBe(1);

    // The next result with the same context: nothing recorded again, the model has it once.
    agent.addMessage({ id: randomUUID(), role: 'tool', toolCallId: 'call_second', content: 'blue' });
    server.llm.push(finishReply('Blue then.'));
    const third = await run(agent, { tools: [pickColor], context: page('/checkout') });
    expect(third.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(lastRequest().json).toContain('blue');
    expect(lastRequest().count('/checkout')).toBe(1);
    expect(await contextMessages(threadId)).toHaveLength(2);
  });

  it('records a bare re-run’s new context for the model’s next request, and an unchanged one not again', async () => {
    const threadId = randomUUID();
    const agent = new XAgent(server.url, threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Hello' });
    server.llm.push(finishReply('Hi.'));
    await run(agent, { context: page('/home'), forwardedProps: { conversation: createRequest(server.llm) } });
    const requests = server.llm.requests.length;

    // A re-run with the same messages: no model call, its new context recorded once.
    for (const _ of [1, 2]) {
      const events = await run(agent, { context: page('/settings') });
      expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    }
    await run(agent, { context: page('/home') });
    expect(server.llm.requests.length).toBe(requests);
    expect((await contextMessages(threadId)).map(([text, context]) => [text, context.split('\n').at(-2)])).toEqual([
      ['Hello', '/home'],
      ['', '/settings'],
      ['', '/home'],
    ]);

    // The next message, without context: the model has the one in effect, before the message.
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Where am I?' });
    server.llm.push(finishReply('Home.'));
    await run(agent);
    const { json, count } = lastRequest();
    expect(count('/settings')).toBe(1);
    expect(count('/home')).toBe(2);
    expect(json.lastIndexOf('/home')).toBeLessThan(json.indexOf('Where am I?'));
  });
});

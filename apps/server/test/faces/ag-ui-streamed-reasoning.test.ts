// A streaming model's reasoning through the AG-UI face, judged by `@ag-ui/client`'s HttpAgent (which checks the order
// of the events it applies) against `x serve` on loopback: the reasoning tokens arrive as one reasoning message,
// opened and closed around its deltas, before the reply's text message, each under its own id; the client's
// assembled reply is the logged one; a second model call's reasoning is a message of its own.
import { randomUUID } from 'node:crypto';
import type { BaseEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { collect, contentOf, XAgent } from '../support/ag-ui-agent.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

function streamingRequest(): Record<string, unknown> {
  const request = createRequest(server.llm) as { agent: { llm: Record<string, unknown> } };
  return { ...request, agent: { ...request.agent, llm: { ...request.agent.llm, stream: true } } };
}

const idOf = (event: BaseEvent): string | undefined => (event as { messageId?: string }).messageId;

/** The reasoning and text messages of a stream, each as its kind, id and the event types it got, in order. */
function messagesOf(events: readonly BaseEvent[]): { kind: string; id: string; types: string[]; text: string }[] {
  const starts = events.filter((event) => event.type === 'REASONING_START' || event.type === 'TEXT_MESSAGE_START');
  return starts.map((start) => {
    const id = idOf(start) as string;
    const own = events.filter((event) => idOf(event) === id);
    const deltas = own.filter((event) => event.type.endsWith('_CONTENT'));
    return {
      kind: start.type === 'REASONING_START' ? 'reasoning' : 'text',
      id,
      types: [...new Set(own.map((event) => event.type))],
      text: deltas.map((event) => (event as unknown as { delta: string }).delta).join(''),
    };
  });
}

describe('AG-UI face with a streaming model that reasons', () => {
  it('streams the reasoning as its own message before the reply, both closed, each under its own id', async () => {
    const threadId = randomUUID();
    server.llm.push(
      {
        reasoning: 'The user wants a listing, so I run ls first.',
        content: 'Listing the files now.',
        toolCalls: [{ name: 'terminal', arguments: { command: 'echo listed' } }],
      },
      { reasoning: 'The listing is in; time to answer.', content: 'Here is the listing you asked for.' },
    );
    const agent = new XAgent(server.url, threadId);
    const events = collect(agent);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'List the files' });
    await agent.runAgent({ forwardedProps: { conversation: streamingRequest() } });

    const messages = messagesOf(events);
    expect(messages.map(({ kind, text }) => [kind, text])).toEqual([
      ['reasoning', 'The user wants a listing, so I run ls first.'],
      ['text', 'Listing the files now.'],
      ['reasoning', 'The listing is in; time to answer.'],
      ['text', 'Here is the listing you asked for.'],
    ]);
    expect(new Set(messages.map((message) => message.id)).size).toBe(4);
    const reasoningTypes = [
      'REASONING_START',
      'REASONING_MESSAGE_START',
      'REASONING_MESSAGE_CONTENT',
      'REASONING_MESSAGE_END',
      'REASONING_END',
    ];
    const textTypes = ['TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END'];
    expect(messages.map((message) => message.types)).toEqual([reasoningTypes, textTypes, reasoningTypes, textTypes]);
    // The reasoning was streamed in pieces, not sent whole at the end.
    const reasoningDeltas = events.filter(
      (event) => event.type === 'REASONING_MESSAGE_CONTENT' && idOf(event) === messages[0]?.id,
    );
    expect(reasoningDeltas.length).toBeGreaterThan(1);
    // The tool call hangs on the streamed thought, and the client's reply is the logged answer.
    expect(events.find((event) => event.type === 'TOOL_CALL_START')).toMatchObject({
      parentMessageId: messages[1]?.id,
    });
    const answerId = messages[3]?.id as string;
    expect(contentOf(events, answerId).join('')).toBe('Here is the listing you asked for.');
    expect(agent.messages.find((message) => message.id === answerId)).toMatchObject({
      role: 'assistant',
      content: 'Here is the listing you asked for.',
    });
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
  });
});

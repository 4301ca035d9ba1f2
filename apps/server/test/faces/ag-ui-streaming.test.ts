// Token streaming through the AG-UI face, judged by `@ag-ui/client`'s HttpAgent against `x serve` whose model is
// a local OpenAI-protocol server that streams (the agent's LLM has `stream: true`): deltas arrive as several
// TEXT_MESSAGE_CONTENT events that add up to the logged message, and a reconnect in the middle of a run resumes
// from the log without a gap or a repeat.
import { randomUUID } from 'node:crypto';
import type { BaseEvent } from '@ag-ui/core';
import { getEventText } from '@x/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer, waitFor } from '../helpers.js';
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

/** The texts of the thread's logged agent messages and thoughts, in order. */
async function loggedTexts(threadId: string): Promise<string[]> {
  const conversation = await (await server.built.manager.require(threadId)).open();
  const events = await conversation.log.range(0, conversation.log.length);
  return events
    .filter((event) => event.source === 'agent' && (event.kind === 'MessageEvent' || event.kind === 'ActionEvent'))
    .map((event) => getEventText(event))
    .filter((text) => text !== '');
}

/** Each text message of a stream: its id and its assembled text. */
function textMessages(events: readonly BaseEvent[]): { id: string; text: string }[] {
  return events
    .filter((event) => event.type === 'TEXT_MESSAGE_START')
    .map((event) => {
      const id = (event as { messageId?: string }).messageId as string;
      return { id, text: contentOf(events, id).join('') };
    });
}

describe('AG-UI face with a streaming model', () => {
  it('sends the reply as token deltas that add up to the logged message, under one message id', async () => {
    const threadId = randomUUID();
    const reply = 'Streaming a fairly long reply, in several chunks, from the model.';
    server.llm.push({ content: reply });
    const agent = new XAgent(server.url, threadId);
    const events = collect(agent);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Talk to me' });
    await agent.runAgent({ forwardedProps: { conversation: streamingRequest() } });

    expect(server.llm.requests.at(-1)?.stream).toBe(true);
    const [message, ...others] = textMessages(events);
    expect(others).toEqual([]);
    expect(contentOf(events, message?.id as string).length).toBeGreaterThan(2);
    expect(message?.text).toBe(reply);
    expect(await loggedTexts(threadId)).toEqual([reply]);
    const end = events.find((event) => event.type === 'TEXT_MESSAGE_END');
    expect(end).toMatchObject({ messageId: message?.id });
    // The client's message is the logged one.
    expect(agent.messages.find((candidate) => candidate.id === message?.id)).toMatchObject({ content: reply });

    // Follow-ups on the thread: the streamed message's id is recognised, so the history is not sent again (a run
    // with nothing new does nothing), only the new user message.
    const requests = server.llm.requests.length;
    await agent.runAgent();
    expect(server.llm.requests.length).toBe(requests);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'And again' });
    server.llm.push({ content: 'Third answer.' });
    await agent.runAgent();
    const conversation = await (await server.built.manager.require(threadId)).open();
    const all = await conversation.log.range(0, conversation.log.length);
    const userMessages = all.filter((event) => event.kind === 'MessageEvent' && event.source === 'user');
    expect(userMessages.map((event) => getEventText(event))).toEqual(['Talk to me', 'And again']);
  });

  it('reattaches mid-run from Last-Event-ID: streams the next reply, and a replay sends each message once, whole', async () => {
    const threadId = randomUUID();
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    server.llm.push(
      {
        content: 'Let me look at the files first.',
        toolCalls: [{ name: 'terminal', arguments: { command: 'echo looked' } }],
      },
      { content: 'All done here, after looking at everything.', gate },
    );
    const first = new XAgent(server.url, threadId);
    const seen = collect(first);
    first.addMessage({ id: randomUUID(), role: 'user', content: 'Look, then answer' });
    let resultId: string | undefined;
    first.subscribe({
      onToolCallResultEvent: ({ event }) => {
        resultId = event.messageId;
        first.abortRun();
      },
    });
    await first.runAgent({ forwardedProps: { conversation: streamingRequest() } }).catch(() => undefined);
    expect(resultId).toBeDefined();
    const managed = await server.built.manager.require(threadId);
    expect(managed.isRunning).toBe(true);

    const again = new XAgent(server.url, threadId);
    again.lastEventId = managed.log.indexOf(resultId as string);
    const resumed = collect(again);
    const run = again.runAgent();
    await waitFor(async () => resumed.some((event) => event.type === 'RUN_STARTED'));
    openGate();
    await run;

    const [thought] = textMessages(seen);
    const [answer, ...more] = textMessages(resumed);
    expect(more).toEqual([]);
    expect(contentOf(resumed, answer?.id as string).length).toBeGreaterThan(2);
    // Across both connections each logged text arrived once, whole, and nothing else.
    expect([thought?.text, answer?.text]).toEqual(await loggedTexts(threadId));
    expect(resumed.at(-1)?.type).toBe('RUN_FINISHED');

    // A client that missed every delta (reattaching from before the run) gets each message whole, once.
    const late = new XAgent(server.url, threadId);
    late.lastEventId = managed.log.indexOf(resultId as string) - 3;
    const replayed = collect(late);
    await late.runAgent();
    expect(textMessages(replayed).map((message) => message.text)).toEqual(
      (await loggedTexts(threadId)).slice(-textMessages(replayed).length),
    );
    expect(textMessages(replayed).at(-1)?.text).toBe('All done here, after looking at everything.');
  });

  it('without the stream flag sends each message whole, as before', async () => {
    const threadId = randomUUID();
    server.llm.push({ content: 'One whole reply.' });
    const agent = new XAgent(server.url, threadId);
    const events = collect(agent);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Hi' });
    await agent.runAgent({ forwardedProps: { conversation: createRequest(server.llm) } });
    const [message] = textMessages(events);
    expect(contentOf(events, message?.id as string)).toEqual(['One whole reply.']);
    expect(await loggedTexts(threadId)).toEqual(['One whole reply.']);
  });
});

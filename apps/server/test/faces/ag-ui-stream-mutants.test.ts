// Token deltas through the AG-UI face while a model call is still streaming, judged by `@ag-ui/client`'s HttpAgent
// against a real server whose model is a loopback OpenAI-protocol stub that holds its second reply after the first
// chunk until the test opens a gate: a delta reaches the client while the call goes on (not once it is logged);
// every streamed message of a run has an id of its own; a client that reattaches (from an earlier id) while a call is
// half streamed gets that message whole from the log, once, and the next call's tokens streamed again.

import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BaseEvent } from '@ag-ui/core';
import { getEventText } from '@x/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer, waitFor } from '../helpers.js';
import { collect, contentOf, XAgent } from '../support/ag-ui-agent.js';

interface Reply {
  content: string;
  command?: string;
}

const replies: Reply[] = [
  { content: 'Looking at it first, in parts.', command: 'echo first' },
  { content: 'Now a second look, streamed in several parts.', command: 'echo second' },
  { content: 'All done here, in several streamed parts.' },
];

let server: TestServer;
let model: Server;
let modelUrl: string;
let requests = 0;
/** Whether the held (second) reply reports its usage: without it the call logs no stats update before its action. */
let heldReportsUsage = true;
let gate: { open: () => void; opened: Promise<void> };
let heldBack: { reached: () => void; promise: Promise<void> };

function newGate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** Answers each chat completion with the next reply, streamed; the second waits for `gate` after its first chunk. */
function startModel(): Promise<void> {
  model = createServer((request, response) => {
    request.resume();
    request.on('end', async () => {
      const reply = replies[requests % replies.length] as Reply;
      const number = requests;
      requests += 1;
      const base = { id: `chatcmpl-${number}`, object: 'chat.completion.chunk', created: 0, model: 'gpt-test' };
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(chunk({ role: 'assistant', content: '' }));
      const words = reply.content.split(/(?<= )/);
      response.write(chunk({ content: words[0] }));
      if (number % replies.length === 1) {
        heldBack.reached();
        await gate.opened;
      }
      for (const word of words.slice(1)) response.write(chunk({ content: word }));
      if (reply.command !== undefined) {
        const args = JSON.stringify({ command: reply.command });
        const call = {
          index: 0,
          id: `call_${number}`,
          type: 'function',
          function: { name: 'terminal', arguments: args },
        };
        response.write(chunk({ tool_calls: [call] }));
      }
      response.write(chunk({}, reply.command === undefined ? 'stop' : 'tool_calls'));
      const usage = { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 };
      if (number % replies.length === 1 && !heldReportsUsage) response.end('data: [DONE]\n\n');
      else response.end(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\ndata: [DONE]\n\n`);
    });
  });
  return new Promise((resolve) => {
    model.listen(0, '127.0.0.1', () => {
      modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
      resolve();
    });
  });
}

beforeAll(async () => {
  server = await startTestServer();
  await startModel();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
  await new Promise((resolve) => model.close(resolve));
});

function createBody(): Record<string, unknown> {
  const request = createRequest(server.llm) as { agent: { llm: Record<string, unknown> } };
  return { ...request, agent: { ...request.agent, llm: { ...request.agent.llm, base_url: modelUrl, stream: true } } };
}

function textMessages(events: readonly BaseEvent[]): { id: string; text: string; parts: number }[] {
  return events
    .filter((event) => event.type === 'TEXT_MESSAGE_START')
    .map((event) => {
      const id = (event as { messageId?: string }).messageId as string;
      const parts = contentOf(events, id);
      return { id, text: parts.join(''), parts: parts.length };
    });
}

async function loggedTexts(threadId: string): Promise<string[]> {
  const conversation = await (await server.built.manager.require(threadId)).open();
  const events = await conversation.log.range(0, conversation.log.length);
  return events
    .filter((event) => event.source === 'agent' && (event.kind === 'MessageEvent' || event.kind === 'ActionEvent'))
    .map((event) => getEventText(event))
    .filter((text) => text !== '');
}

describe('AG-UI deltas of a model call still streaming', () => {
  it('reach the client during the call, and a client reattaching mid-call gets the message whole, then streams again', async () => {
    heldReportsUsage = true;
    await reattachMidCall();
  });

  it('stream the next call again when the held call’s action is the first event logged after the reattach', async () => {
    // No usage, no stats update: the action that ends the half-streamed call lands at the very index the reattach
    // started watching from, and must end the skipping there, or the next call's tokens would be held back too.
    heldReportsUsage = false;
    await reattachMidCall();
  });
});

async function reattachMidCall(): Promise<void> {
  requests = 0;
  gate = newGate();
  let reached!: () => void;
  heldBack = { reached: () => reached(), promise: new Promise<void>((resolve) => (reached = resolve)) };
  const threadId = randomUUID();
  const first = new XAgent(server.url, threadId);
  const seen = collect(first);
  first.addMessage({ id: randomUUID(), role: 'user', content: 'Look twice, then answer' });
  const firstRun = first.runAgent({ forwardedProps: { conversation: createBody() } }).catch(() => undefined);
  try {
    await heldBack.promise;
    // The second call is held after its first chunk: its first delta still reaches the client.
    await waitFor(async () => textMessages(seen).length === 2 && (textMessages(seen)[1]?.parts ?? 0) > 0, 15_000);
    expect(textMessages(seen)[1]?.text).toBe('Now ');
    const [firstMessage, secondMessage] = textMessages(seen);
    // Each streamed message has an id of its own, named after a logged event before it.
    expect(firstMessage?.id).not.toBe(secondMessage?.id);
    first.abortRun();
    await firstRun;

    // A client reattaching from the first user message, while the second call is half streamed.
    const managed = await server.built.manager.require(threadId);
    const conversation = await managed.open();
    const logged = await conversation.log.range(0, conversation.log.length);
    const userIndex = logged.findIndex((event) => event.kind === 'MessageEvent' && event.source === 'user');
    expect(managed.log.indexOf((secondMessage?.id ?? '').replace(/:text$/, ''))).toBeGreaterThan(userIndex);
    const again = new XAgent(server.url, threadId);
    again.lastEventId = userIndex;
    const resumed = collect(again);
    const run = again.runAgent();
    await waitFor(async () => resumed.some((event) => event.type === 'RUN_STARTED'));
    gate.open();
    await run;

    const texts = await loggedTexts(threadId);
    expect(texts).toEqual(replies.map((reply) => reply.content));
    const messages = textMessages(resumed);
    // Each logged text once, whole: the half-streamed one from the log, the next call streamed in parts.
    expect(messages.map((message) => message.text)).toEqual(texts);
    expect(messages.at(-1)?.parts).toBeGreaterThan(2);
    expect(new Set(messages.map((message) => message.id)).size).toBe(messages.length);
  } finally {
    gate.open();
  }
}

// The AG-UI face judged by the official client: `@ag-ui/client`'s HttpAgent drives runs against `x serve`
// (a real server on 127.0.0.1, the scripted OpenAI-protocol model), including a reconnect in the middle of a run
// and a confirmation answered through an interrupt.
import { randomUUID } from 'node:crypto';
import type { BaseEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agUiEventsOf } from '../../src/faces/ag-ui/index.js';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer, waitFor } from '../helpers.js';
import { XAgent as BaseXAgent, collect } from '../support/ag-ui-agent.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

class XAgent extends BaseXAgent {
  constructor(threadId: string) {
    super(server.url, threadId);
  }
}

/**
 * What the log holds from `from` on (by default from the first user message, where the first run's stream
 * starts), as the face maps it: the stream's expected body.
 */
async function loggedFrom(threadId: string, from?: number): Promise<unknown[]> {
  const managed = await server.built.manager.require(threadId);
  const conversation = await managed.open();
  const all = await conversation.log.range(0, conversation.log.length);
  const start = from ?? all.findIndex((event) => event.kind === 'MessageEvent' && event.source === 'user');
  return all.slice(start).flatMap((event) => agUiEventsOf(event));
}

const body = (events: readonly BaseEvent[]): unknown[] =>
  events
    .filter((event) => !['RUN_STARTED', 'RUN_FINISHED', 'STATE_SNAPSHOT'].includes(event.type))
    .map(({ timestamp: _, ...event }) => event);

describe('AG-UI face, driven by @ag-ui/client', () => {
  it('runs a new thread end to end: tool call, its result and the final answer, from the log', async () => {
    const threadId = randomUUID();
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo from-ag-ui' } }] },
      finishReply('Done.'),
    );
    const agent = new XAgent(threadId);
    const events = collect(agent);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Say hello from the terminal' });
    await agent.runAgent({ forwardedProps: { conversation: createRequest(server.llm) } });

    const types = events.map((event) => event.type);
    expect(types[0]).toBe('RUN_STARTED');
    expect(types.at(-1)).toBe('RUN_FINISHED');
    const result = events.find(
      (event) =>
        event.type === 'TOOL_CALL_RESULT' && String((event as { content?: unknown }).content).includes('from-ag-ui'),
    );
    expect(result).toBeDefined();
    expect(events.find((event) => event.type === 'TOOL_CALL_START')).toMatchObject({ toolCallName: 'terminal' });
    // Every event the run appended, in order, once.
    expect(body(events)).toEqual(await loggedFrom(threadId));
    // The client's thread holds the tool call and its result.
    expect(agent.messages.some((message) => message.role === 'tool')).toBe(true);
  });

  it('reattaches to a run in progress from Last-Event-ID with no gap and no duplicate', async () => {
    const threadId = randomUUID();
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo first' } }] },
      { ...finishReply('second half'), gate },
    );
    const first = new XAgent(threadId);
    const seen = collect(first);
    first.addMessage({ id: randomUUID(), role: 'user', content: 'Two steps please' });
    let resultId: string | undefined;
    first.subscribe({
      onToolCallResultEvent: ({ event }) => {
        resultId = event.messageId;
        // The model is now held at the gate: drop the connection mid-run.
        first.abortRun();
      },
    });
    await first.runAgent({ forwardedProps: { conversation: createRequest(server.llm) } }).catch(() => undefined);
    expect(resultId).toBeDefined();
    const managed = await server.built.manager.require(threadId);
    expect(managed.isRunning).toBe(true);
    const lastSeen = managed.log.indexOf(resultId as string);

    const again = new XAgent(threadId);
    again.lastEventId = lastSeen;
    const resumed = collect(again);
    const run = again.runAgent();
    // Released only once the second client is attached: what follows can only reach it through the log.
    await waitFor(async () => resumed.some((event) => event.type === 'RUN_STARTED'));
    openGate();
    await run;

    expect(resumed.at(-1)?.type).toBe('RUN_FINISHED');
    // The dropped client ends its own run with a local RUN_ERROR (its abort): not part of the stream.
    const before = body(seen.filter((event) => event.type !== 'RUN_ERROR'));
    expect([...before, ...body(resumed)]).toEqual(await loggedFrom(threadId));
    expect(body(resumed)).toEqual(await loggedFrom(threadId, lastSeen + 1));
  });

  it('raises a confirmation as an interrupt, and runs the action once it is approved through resume', async () => {
    const threadId = randomUUID();
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo risky-step' } }] },
      finishReply('ok'),
    );
    const agent = new XAgent(threadId);
    const first = collect(agent);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Do the risky thing' });
    await agent.runAgent({
      forwardedProps: {
        conversation: createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } }),
      },
    });
    const finished = first.at(-1) as { type: string; outcome?: { type: string; interrupts: { id: string }[] } };
    expect(finished.type).toBe('RUN_FINISHED');
    expect(finished.outcome?.type).toBe('interrupt');
    const interrupt = finished.outcome?.interrupts[0];
    expect(interrupt).toMatchObject({ reason: 'confirmation' });
    expect(first.some((event) => event.type === 'TOOL_CALL_RESULT')).toBe(false);

    const second = collect(agent);
    await agent.runAgent({
      resume: [{ interruptId: interrupt?.id as string, status: 'resolved', payload: { approved: true } }],
    });
    const results = second.filter((event) => event.type === 'TOOL_CALL_RESULT') as unknown as { content: string }[];
    expect(results[0]?.content).toContain('risky-step');
    expect((second.at(-1) as { outcome?: { type: string } }).outcome?.type).toBe('success');
  });

  it('records a refusal given through resume, with its reason, and the model sees it', async () => {
    const threadId = randomUUID();
    server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf build' } }] }, finishReply('fine'));
    const agent = new XAgent(threadId);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Clean up' });
    await agent.runAgent({
      forwardedProps: {
        conversation: createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } }),
      },
    });
    const [pending] = agent.pendingInterrupts;
    const events = collect(agent);
    await agent.runAgent({
      resume: [
        { interruptId: pending?.id as string, status: 'resolved', payload: { approved: false, reason: 'not today' } },
      ],
    });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'TOOL_CALL_RESULT', content: 'Action rejected: not today' }),
    );
  });

  it('answers a thread it does not know, without a create body, with 404 naming forwardedProps.conversation', async () => {
    const response = await fetch(`${server.url}/api/ag-ui`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ threadId: randomUUID(), runId: 'r', messages: [], tools: [], context: [] }),
    });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('forwardedProps.conversation');
  });

  it('refuses a malformed run input and a malformed Last-Event-ID with 4xx', async () => {
    const bad = await fetch(`${server.url}/api/ag-ui`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ threadId: 5, messages: 'no' }),
    });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    const id = await fetch(`${server.url}/api/ag-ui`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'last-event-id': 'yesterday' },
      body: JSON.stringify({ threadId: randomUUID(), runId: 'r', messages: [] }),
    });
    expect(id.status).toBe(400);
  });
});

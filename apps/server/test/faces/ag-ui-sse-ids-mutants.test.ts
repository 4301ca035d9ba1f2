// The SSE ids of the AG-UI stream, read as plain HTTP server-sent events from `x serve` with a streaming model: a
// token delta's frame carries the id of the last log event written before it (never a later one), so a client that
// resumes from any id it got (`Last-Event-ID`) misses nothing: the message whose tokens it had comes whole from the
// log. `Last-Event-ID: -1` replays the whole log; an empty one is refused.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer } from '../helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

interface Frame {
  id?: number;
  event: { type: string; messageId?: string; delta?: string };
}

/** Posts a run input and reads the whole stream as frames (`id:` and `data:` lines). */
async function post(
  input: Record<string, unknown>,
  lastEventId?: string,
): Promise<{ status: number; frames: Frame[] }> {
  const response = await fetch(`${server.url}/api/ag-ui`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
    },
    body: JSON.stringify({ runId: randomUUID(), messages: [], tools: [], context: [], ...input }),
  });
  const text = await response.text();
  const frames = text
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map((block) => {
      const id = /^id: (\d+)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? '{}';
      return { ...(id === undefined ? {} : { id: Number(id) }), event: JSON.parse(data) };
    });
  return { status: response.status, frames };
}

const isDelta = (frame: Frame) => frame.event.messageId?.endsWith(':text') === true;
const textOf = (frames: readonly Frame[], messageId: string) =>
  frames
    .filter((frame) => frame.event.type === 'TEXT_MESSAGE_CONTENT' && frame.event.messageId === messageId)
    .map((frame) => frame.event.delta)
    .join('');

describe('AG-UI SSE ids with a streaming model', () => {
  it('gives each delta the id of the last log event before it, so resuming from it loses no text', async () => {
    const threadId = randomUUID();
    const reply = 'A reply long enough to come in several token deltas from the model.';
    server.llm.push({ content: reply });
    const request = createRequest(server.llm) as { agent: { llm: Record<string, unknown> } };
    const { status, frames } = await post({
      threadId,
      messages: [{ id: randomUUID(), role: 'user', content: 'Talk to me' }],
      forwardedProps: {
        conversation: { ...request, agent: { ...request.agent, llm: { ...request.agent.llm, stream: true } } },
      },
    });
    expect(status).toBe(200);
    const deltas = frames.filter((frame) => frame.event.type === 'TEXT_MESSAGE_CONTENT' && isDelta(frame));
    expect(deltas.length).toBeGreaterThan(2);

    // The model call's usage (`stats`) is logged once its last token came, then its message: every delta's id is
    // of an event logged before the call's tokens, never of one that was still to come.
    const conversation = await (await server.built.manager.require(threadId)).open();
    const logged = await conversation.log.range(0, conversation.log.length);
    const stats = logged.findIndex((event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'stats');
    const message = logged.find((event) => event.kind === 'MessageEvent' && event.source === 'agent');
    expect(stats).toBeLessThan(logged.indexOf(message as (typeof logged)[number]));
    for (const delta of deltas) {
      expect(delta.id).toBeGreaterThan(0);
      expect(delta.id).toBeLessThan(stats);
    }

    // A client that got the first delta and resumes from its id gets the message whole, from the log.
    const resumed = await post({ threadId }, String(deltas[0]?.id));
    expect(textOf(resumed.frames, message?.id as string)).toBe(reply);
    expect(resumed.frames.at(-1)?.event.type).toBe('RUN_FINISHED');

    // -1 replays the whole log; an empty id is no log index.
    const replay = await post({ threadId }, '-1');
    expect(replay.status).toBe(200);
    expect(textOf(replay.frames, message?.id as string)).toBe(reply);
    expect((await post({ threadId }, '')).status).toBe(400);
  });
});

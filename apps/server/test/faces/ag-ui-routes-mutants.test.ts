// The AG-UI route's edges, read as plain HTTP from a real server: a `Last-Event-ID` past the thread's last event
// (an id from another thread, or made up) is refused with 400 before any stream starts, where a reattach from the
// last event itself gets the run's end alone; a malformed one is refused saying what an id is.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

/** Posts a run input; returns the status, the content type and the AG-UI events of the body (none for an error). */
async function post(
  input: Record<string, unknown>,
  lastEventId?: string,
): Promise<{ status: number; type: string | null; text: string; events: { type: string }[] }> {
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
  const events = [...text.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1] as string));
  return { status: response.status, type: response.headers.get('content-type'), text, events };
}

describe('AG-UI route', () => {
  it('refuses a Last-Event-ID past the thread’s last event with 400, and streams the end of a reattach from the last one', async () => {
    const threadId = randomUUID();
    server.llm.push(finishReply('Done.'));
    const first = await post({
      threadId,
      messages: [{ id: randomUUID(), role: 'user', content: 'Finish' }],
      forwardedProps: { conversation: createRequest(server.llm) },
    });
    expect(first.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    const managed = await server.built.manager.require(threadId);
    const last = managed.log.length - 1;

    const atEnd = await post({ threadId }, String(last));
    expect(atEnd.status).toBe(200);
    expect(atEnd.events.map((event) => event.type)).toEqual(['RUN_STARTED', 'STATE_SNAPSHOT', 'RUN_FINISHED']);

    for (const past of [last + 1, last + 1000]) {
      const refused = await post({ threadId }, String(past));
      expect(refused.status).toBe(400);
      expect(refused.type).not.toContain('text/event-stream');
      expect(refused.text).toContain(`Last-Event-ID ${past} is past the last event of this thread (index ${last})`);
    }
    const malformed = await post({ threadId }, 'yesterday');
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain("Last-Event-ID must be a log index (an integer ≥ -1), got 'yesterday'");
    // Nothing was appended by the refusals.
    expect(managed.log.length).toBe(last + 1);
  });

  it('streams a new run from the end of the log: a state change the thread already recorded is not sent again', async () => {
    const threadId = randomUUID();
    server.llm.push(finishReply('Done.'));
    await post({
      threadId,
      messages: [{ id: randomUUID(), role: 'user', content: 'Finish' }],
      forwardedProps: { conversation: createRequest(server.llm) },
    });
    // Changed through the conversation API: the log's last event when the next run input comes.
    const patched = await server.call('PATCH', `/api/conversations/${threadId}/session`, {
      state_delta: { plan: 'pro' },
    });
    expect(patched.status).toBe(200);
    server.llm.push(finishReply('Done again.'));
    const next = await post({ threadId, messages: [{ id: randomUUID(), role: 'user', content: 'Again' }] });
    expect(next.events[1]).toMatchObject({ type: 'STATE_SNAPSHOT', snapshot: { plan: 'pro' } });
    expect(next.events.some((event) => event.type === 'STATE_DELTA')).toBe(false);
    expect(next.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
  });
});

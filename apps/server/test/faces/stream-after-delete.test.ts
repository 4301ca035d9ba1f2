// A conversation deleted while a protocol face streams its run: the stream must not end as if the run had
// succeeded (AG-UI's RUN_FINISHED) or with no terminal status at all (A2A). Each client is the official one; the
// model's reply is held back by a gate until the delete has finished, so the run is under way when it happens: the
// delete interrupts the run (a pause would wait for the held model call).
import type { BaseEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, finishReply } from '../helpers.js';
import { collect, XAgent } from '../support/ag-ui-agent.js';
import { type A2aFixture, send, startA2aFixture, textPart, userMessage } from './a2a-client-support.js';

let fixture: A2aFixture;

beforeAll(async () => {
  // A delete that waited for the step under way (the held model call) would wait this long: the test would time out.
  fixture = await startA2aFixture({}, { deleteRunTimeoutMs: 600_000 });
});
afterAll(async () => {
  await fixture.stop();
});

/** Holds the model's next reply until `open`. */
function heldReply(): { open: () => void } {
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  fixture.server.llm.push({ ...finishReply('done'), gate });
  return { open };
}

/** Deletes the conversation once the model has been called (its run is under way), then lets the model answer. */
async function deleteMidRun(id: string, requestsBefore: number, held: { open: () => void }): Promise<void> {
  await fixture.server.llm.waitForRequests(requestsBefore + 1);
  const { status } = await fixture.server.call('DELETE', `/api/conversations/${id}`);
  expect(status).toBe(200);
  held.open();
}

describe('a stream whose conversation is deleted mid-run', () => {
  it('AG-UI ends with RUN_ERROR conversation_deleted, never RUN_FINISHED', async () => {
    const id = await createConversation(fixture.server);
    const held = heldReply();
    const before = fixture.server.llm.requests.length;
    const agent = new XAgent(fixture.server.url, id);
    agent.addMessage({ id: 'u1', role: 'user', content: 'Work on it' });
    const events: BaseEvent[] = collect(agent);
    const run = agent.runAgent({ runId: 'r1' }).then(
      () => 'finished',
      (error: unknown) => (error as Error).message,
    );
    await deleteMidRun(id, before, held);
    await run;
    const types = events.map((event) => event.type);
    expect(types).not.toContain('RUN_FINISHED');
    expect(events.at(-1)).toMatchObject({
      type: 'RUN_ERROR',
      code: 'conversation_deleted',
      message: `Thread '${id}' was deleted`,
    });
  });

  it('A2A ends with TaskNotFound saying the task was deleted, after no terminal status', async () => {
    const held = heldReply();
    const before = fixture.server.llm.requests.length;
    const stream = fixture.client.sendMessageStream(send(userMessage([textPart('Work on it')])));
    const first = await stream.next();
    expect(first.value?.payload?.$case).toBe('task');
    const id = (first.value?.payload?.value as { id?: string } | undefined)?.id ?? '';
    // Settled at once (a rejection left unhandled while the delete runs would fail the file).
    const rest = (async () => {
      for await (const _item of stream) {
        // the items before the end: the task stays working until the delete
      }
      return 'ended without an error';
    })().catch((error: unknown) => error);
    await deleteMidRun(id, before, held);
    // The SDK raises the stream's JSON-RPC error wrapped, the typed error as its cause.
    expect(await rest).toMatchObject({
      message: expect.stringContaining(`Task '${id}' was deleted (Code: -32001)`),
      cause: { name: 'TaskNotFoundError' },
    });
  });
});

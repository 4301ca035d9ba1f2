// The AG-UI shared state's size bound holds for the state as stored, judged by `@ag-ui/client`'s HttpAgent against a
// real server: clients that each send one new key (as one that has not seen the state does, erasing nothing) grow
// the thread's state run by run until the total would pass MAX_SHARED_STATE_BYTES; that input gets a typed RUN_ERROR
// and records nothing, while one that makes room first is taken.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SHARED_STATE_BYTES } from '../../src/faces/ag-ui/shared-state.js';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { runToEnd, XAgent } from '../support/ag-ui-agent.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

async function stored(threadId: string) {
  const conversation = await (await server.built.manager.require(threadId)).open();
  const events = await conversation.log.range(0, conversation.log.length);
  const updates = events.filter(
    (event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'state_delta',
  );
  return { state: conversation.session.state, updates: updates.length };
}

/** A run by a client that has not seen the thread's state: it sends only `state`. */
async function runWithState(threadId: string, state: Record<string, unknown>) {
  const agent = new XAgent(server.url, threadId);
  agent.state = state;
  return runToEnd(agent);
}

describe('the AG-UI shared state bound, over several runs', () => {
  it('refuses the input of a new key that would take the stored state over the bound, recording nothing', async () => {
    const threadId = randomUUID();
    const quarter = 'x'.repeat(Math.floor(MAX_SHARED_STATE_BYTES / 4) - 20);
    server.llm.push(finishReply('Hello.'));
    const first = new XAgent(server.url, threadId);
    first.addMessage({ id: randomUUID(), role: 'user', content: 'Hi' });
    first.state = { k0: quarter };
    await runToEnd(first, { forwardedProps: { conversation: createRequest(server.llm) } });
    for (const key of ['k1', 'k2', 'k3']) {
      expect((await runWithState(threadId, { [key]: quarter })).at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    }
    expect(Object.keys((await stored(threadId)).state)).toEqual(['k0', 'k1', 'k2', 'k3']);

    // Each input is a quarter of the bound; the state they would make is more than all of it.
    const refused = await runWithState(threadId, { k4: quarter });
    expect(refused).toEqual([
      expect.objectContaining({
        type: 'RUN_ERROR',
        code: 'invalid_state',
        message: expect.stringMatching(new RegExp(`would hold \\d+ bytes of JSON.*${MAX_SHARED_STATE_BYTES}`)),
      }),
    ]);
    expect(await stored(threadId)).toEqual({
      state: { k0: quarter, k1: quarter, k2: quarter, k3: quarter },
      updates: 4,
    });

    // Making room in the same input is taken: the bound is on the total.
    expect((await runWithState(threadId, { k0: null, k4: quarter })).at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    expect(Object.keys((await stored(threadId)).state).sort()).toEqual(['k1', 'k2', 'k3', 'k4']);
  });
});

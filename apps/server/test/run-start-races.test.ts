// Two runs asked for at (nearly) the same time, as two tabs of a client or a retried request send them. One of them
// runs, the other gets the reference's 409 at once; the conversation is not run twice, and it stays known as
// running (a message sent with `run` during the run is scheduled, not refused; idle release leaves it open).
import { createLocalFileStore } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createConversation,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  tempDir,
  waitFor,
  waitForIdle,
} from './helpers.js';
import { storeGate } from './support/store-gate.js';

/** A clock that counts its reads: a conversation reads it each time a request opens it (touch), so a test knows a
 * request it sent has reached the conversation. */
function countingClock(): { clock: () => number; reads(): number; advance(ms: number): void } {
  let now = 1_000_000;
  let reads = 0;
  return {
    clock: () => {
      reads += 1;
      return now;
    },
    reads: () => reads,
    advance: (ms) => {
      now += ms;
    },
  };
}

/** A promise the test resolves by hand (an LLM reply held until the test is ready). */
function manualGate(): { promise: Promise<void>; open(): void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

let server: TestServer | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  await server?.stop();
  if (dataDir !== undefined) await removeDir(dataDir);
  server = undefined;
  dataDir = undefined;
});

async function start(
  kind: 'read' | 'write',
  matching: (path: string) => boolean,
): Promise<{ server: TestServer; gate: ReturnType<typeof storeGate>; clock: ReturnType<typeof countingClock> }> {
  dataDir = await tempDir();
  const gate = storeGate(createLocalFileStore({ root: dataDir }), kind, matching);
  const clock = countingClock();
  server = await startTestServer({ dataDir, build: { store: gate.store, clock: clock.clock } });
  return { server, gate, clock };
}

const message = (text: string, run: boolean) => ({ role: 'user', content: [{ type: 'text', text }], run });

/** How many runs the conversation's log records as started. */
async function runsStarted(server: TestServer, id: string): Promise<number> {
  const page = await server.call('GET', `/api/conversations/${id}/events/search?limit=100`);
  const items = (page.json as { items: { kind: string; key?: string; value?: { phase?: string } }[] }).items;
  return items.filter((event) => event.kind === 'ConversationStateUpdateEvent' && event.value?.phase === 'started')
    .length;
}

describe('two runs asked for at once', () => {
  it('refuses with 409 a run asked for while the first is still starting, and runs the conversation once', async () => {
    const { server, gate, clock } = await start('write', (path) => path.includes('/.lease/gen-'));
    const id = await createConversation(server);
    await server.call('POST', `/api/conversations/${id}/events`, message('go', false));
    // A second reply, should a second run ask for one.
    server.llm.push(finishReply('done'), finishReply('twice'));
    // The first run is registered but holds at its first write (taking the run lease): its status is still idle.
    gate.hold();
    const first = server.call('POST', `/api/conversations/${id}/run`);
    await waitFor(async () => gate.held() > 0);
    const reads = clock.reads();
    const second = server.call('POST', `/api/conversations/${id}/run`);
    // The second request has reached the conversation before the first run goes on.
    await waitFor(async () => clock.reads() > reads);
    gate.release();
    expect((await first).status).toBe(200);
    expect(await second).toEqual({
      status: 409,
      json: { detail: 'Conversation already running. Wait for completion or pause first.' },
    });
    expect((await waitForIdle(server, id)).execution_status).toBe('finished');
    expect(await runsStarted(server, id)).toBe(1);
    expect(server.llm.requests).toHaveLength(1);
  });

  it('runs once a conversation two requests opened together, and keeps it running until its run ends', async () => {
    const { server, gate, clock } = await start('read', (path) => path.endsWith('base_state.json'));
    const id = await createConversation(server);
    await server.call('POST', `/api/conversations/${id}/events`, message('go', false));
    // Released when idle: the next request opens it again from the store.
    clock.advance(10 * 60_000);
    expect(await server.built.manager.releaseIdle()).toBe(1);
    const answer = manualGate();
    server.llm.push({ ...finishReply('done'), gate: answer.promise }, finishReply('after the message'));
    gate.hold();
    const first = server.call('POST', `/api/conversations/${id}/run`);
    await waitFor(async () => gate.held() > 0);
    const reads = clock.reads();
    const second = server.call('POST', `/api/conversations/${id}/run`);
    await waitFor(async () => clock.reads() > reads);
    gate.release();
    const statuses = [(await first).status, (await second).status].sort();
    expect(statuses).toEqual([200, 409]);
    await server.llm.waitForRequests(1);
    // The run is going: a message asking for a run is taken (it runs after this one), and idle release leaves it.
    expect(await server.call('POST', `/api/conversations/${id}/events`, message('and this', true))).toEqual({
      status: 200,
      json: { success: true },
    });
    clock.advance(10 * 60_000);
    expect(await server.built.manager.releaseIdle()).toBe(0);
    answer.open();
    await waitForIdle(server, id);
    // One run, which took the message at its next step: nothing ran twice, nothing was left unanswered.
    expect(await runsStarted(server, id)).toBe(1);
    expect(server.llm.requests).toHaveLength(2);
    expect(JSON.stringify(server.llm.requests[1])).toContain('and this');
  });
});

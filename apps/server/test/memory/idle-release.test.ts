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
} from '../helpers.js';
import { connectRecording } from '../support/socket-client.js';
import { countHeapObjects } from './heap-objects.js';

const IDLE_MS = 60_000;
const dirs: string[] = [];
const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

/** A server whose idle release reads a clock the test moves. */
async function startServerWithClock(options: { dataDir?: string; maxOpenConversations?: number } = {}) {
  let now = 1_000_000;
  const dataDir = options.dataDir ?? (await tempDir());
  if (options.dataDir === undefined) dirs.push(dataDir);
  const server = await startTestServer({
    dataDir,
    config: { idleReleaseMs: IDLE_MS, maxOpenConversations: options.maxOpenConversations ?? 256 },
    build: { clock: () => now },
  });
  servers.push(server);
  return { server, advance: (ms: number) => (now += ms) };
}

async function runToFinish(server: TestServer, text: string): Promise<string> {
  server.llm.push(finishReply(text));
  const id = await createConversation(server, {
    initial_message: { content: [{ type: 'text', text }], run: true },
  });
  await waitForIdle(server, id);
  return id;
}

async function openCount(server: TestServer, ids: string[]): Promise<number> {
  let open = 0;
  for (const id of ids) if ((await server.built.manager.get(id))?.isOpen) open += 1;
  return open;
}

describe('server memory', () => {
  it('releases idle conversations: none of their Conversation objects stays on the heap, and they resume on use', async () => {
    const { server, advance } = await startServerWithClock();
    const ids: string[] = [];
    for (let n = 0; n < 8; n += 1) ids.push(await runToFinish(server, `task ${n}`));
    const watched = ids[0] as string;
    const socket = connectRecording(`${server.url.replace('http', 'ws')}/sockets/events/${watched}`);
    await socket.opened;
    await socket.waitFor((frames) => frames.length > 0);

    const before = await countHeapObjects(['Conversation', 'ManagedConversation']);
    expect(before.Conversation).toBeGreaterThanOrEqual(ids.length);

    // Not idle long enough: nothing goes.
    advance(IDLE_MS - 1);
    expect(await server.built.manager.releaseIdle()).toBe(0);
    // Idle: all but the one an event socket watches go.
    advance(1);
    expect(await server.built.manager.releaseIdle()).toBe(ids.length - 1);
    expect(await openCount(server, ids)).toBe(1);

    socket.ws.close();
    await socket.closed;
    await waitFor(async () => (await server.built.manager.releaseIdle()) === 1 || (await openCount(server, ids)) === 0);
    expect(await openCount(server, ids)).toBe(0);

    const after = await countHeapObjects(['Conversation', 'ManagedConversation']);
    // Their events, state and processes are gone; what stays of each is at most its meta (ManagedConversation,
    // held weakly: weak-entries.test.ts).
    expect(after.Conversation).toBe(0);
    expect(after.ManagedConversation).toBeLessThanOrEqual(before.ManagedConversation as number);

    // A released conversation resumes on its next use, with everything it had.
    const info = await server.call('GET', `/api/conversations/${ids[3]}`);
    expect(info.status).toBe(200);
    expect((info.json as { execution_status: string }).execution_status).toBe('finished');
    const final = await server.call('GET', `/api/conversations/${ids[3]}/agent_final_response`);
    expect(final.json).toEqual({ response: 'task 3' });
  });

  it('never releases a running conversation, and keeps at most maxOpenConversations open', async () => {
    const { server, advance } = await startServerWithClock({ maxOpenConversations: 2 });
    const finished: string[] = [];
    for (let n = 0; n < 4; n += 1) {
      finished.push(await runToFinish(server, `done ${n}`));
      advance(1_000);
    }
    server.llm.push({ hang: true });
    const running = await createConversation(server, {
      initial_message: { content: [{ type: 'text', text: 'think forever' }], run: true },
    });
    await waitFor(async () => (await server.built.manager.get(running))?.isRunning === true);

    // Over the limit, the least recently used idle ones go (used at least a tenth of the idle time ago).
    advance(IDLE_MS / 10);
    expect(await server.built.manager.releaseIdle()).toBe(3);
    expect(await openCount(server, finished)).toBe(1);
    expect((await server.built.manager.get(finished[3] as string))?.isOpen).toBe(true);

    advance(IDLE_MS);
    await server.built.manager.releaseIdle();
    expect((await server.built.manager.get(running))?.isOpen).toBe(true);
    expect((await server.built.manager.get(running))?.isRunning).toBe(true);
    // Interrupting ends the hanging model call (pausing would wait it out, and so would the server's stop).
    expect(await server.call('POST', `/api/conversations/${running}/interrupt`)).toMatchObject({ status: 200 });
    await waitForIdle(server, running);
  });

  it('lists a page from the index: with many conversations on disk, only the page is opened', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const first = await startTestServer({ dataDir });
    const ids: string[] = [];
    for (let n = 0; n < 30; n += 1)
      ids.push(await createConversation(first, { title: `job ${n % 3 === 0 ? 'alpha' : 'beta'} ${n}` }));
    await first.stop();

    const { server } = await startServerWithClock({ dataDir });
    const page = await server.call('GET', '/api/conversations/search?limit=5&sort_order=CREATED_AT');
    expect(page.status).toBe(200);
    const items = (page.json as { items: { id: string }[]; next_page_id: string | null }).items;
    expect(items.map((item) => item.id)).toEqual(ids.slice(0, 5));
    expect(await openCount(server, ids)).toBe(5);

    expect((await server.call('GET', '/api/conversations/count')).json).toBe(30);
    expect((await server.call('GET', '/api/conversations/count?q=ALPHA')).json).toBe(10);
    expect((await server.call('GET', '/api/conversations/count?status=idle')).json).toBe(30);
    expect((await server.call('GET', '/api/conversations/count?status=running')).json).toBe(0);
    // Counting opened nothing more.
    expect(await openCount(server, ids)).toBe(5);
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import {
  createTestDatabase,
  type PostgresServer,
  startPostgresServer,
  type TestDatabase,
} from '@x/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createConversation,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  tempDir,
  waitFor,
} from './helpers.js';
import { connectRecording, persistedFrames } from './support/socket-client.js';

type Info = Record<string, unknown>;

let postgres: PostgresServer;
let database: TestDatabase;
let llm: ScriptedLLMServer;
/** Where the tools of every replica write, so a test can count what ran, whichever replica ran it. */
let shared: string;
const dirs: string[] = [];
const replicas: TestServer[] = [];

beforeAll(async () => {
  postgres = await startPostgresServer();
  database = await createTestDatabase(postgres.url);
  llm = await startScriptedLLMServer();
  shared = await tempDir();
  for (let index = 0; index < 3; index++) {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    // One workspace root for all: a conversation's working directory is the same on every replica.
    replicas.push(
      await startTestServer({ dataDir, llm, config: { databaseUrl: database.url, workspaceRoot: shared } }),
    );
  }
}, 180_000);
afterAll(async () => {
  for (const replica of replicas) await replica.built.close();
  await llm?.close();
  for (const dir of [...dirs, shared]) await removeDir(dir);
  await database?.drop();
  await postgres?.stop();
});

async function info(replica: TestServer, id: string): Promise<Info> {
  return (await replica.call('GET', `/api/conversations/${id}`)).json as Info;
}

async function events(replica: TestServer, id: string): Promise<Info[]> {
  return ((await replica.call('GET', `/api/conversations/${id}/events/search?limit=100`)).json as { items: Info[] })
    .items;
}

async function linesOf(file: string): Promise<string[]> {
  return (await readFile(file, 'utf8').catch(() => '')).split('\n').filter((line) => line !== '');
}

/**
 * Every event's parent is the tree event before it (state updates are not tree nodes, §7.7): one branch,
 * nothing stamped on a stale HEAD by a replica that had not seen the latest events.
 */
function expectOneBranch(items: Info[]): void {
  let head: unknown;
  for (const [index, item] of items.entries()) {
    if (index > 0) expect(item.parent_id, `parent of event ${index} (${String(item.kind)})`).toBe(head);
    if (item.kind !== 'ConversationStateUpdateEvent') head = item.id;
  }
}

describe('three replicas on one PostgreSQL', () => {
  it('delivers a message sent to replica B into the run replica A is doing', async () => {
    const [a, b] = replicas as [TestServer, TestServer];
    const before = llm.requests.length;
    const marker = join(shared, 'message.txt');
    llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `sleep 2; echo step >> ${marker}` } }] },
      finishReply('answered both'),
    );
    // The marker is written in the conversation's workspace: its sandbox lets nothing else be written.
    const id = await createConversation(a, {
      workspace: { working_dir: shared },
      initial_message: { content: [{ type: 'text', text: 'first task' }] },
    });
    await waitFor(async () => (await events(a, id)).some((event) => event.kind === 'ActionEvent'));

    const sent = await b.call('POST', `/api/conversations/${id}/events`, {
      content: [{ type: 'text', text: 'also mention the weather' }],
      run: true,
    });
    expect(sent.status).toBeLessThan(300);
    await waitFor(async () => (await info(a, id)).execution_status === 'finished', 60_000);

    // A's next model request (after the tool) carried B's message: it reached the run.
    const requests = llm.requests.slice(before);
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[1])).toContain('also mention the weather');
    const all = await events(b, id);
    const messages = all.filter((event) => JSON.stringify(event).includes('also mention the weather'));
    expect(messages.map((event) => event.kind)).toEqual(['MessageEvent']);
    expectOneBranch(all);
    expect(await linesOf(marker)).toEqual(['step']);
    expect((await b.call('GET', `/api/conversations/${id}/verify`)).json).toMatchObject({ status: 'verified' });
  }, 180_000);

  it('applies two concurrent confirmations, sent to two replicas, exactly once; two rejections too', async () => {
    const [a, b, c] = replicas as [TestServer, TestServer, TestServer];
    const marker = join(shared, 'confirmed.txt');
    const before = llm.requests.length;
    llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: `echo once >> ${marker}` } }] });
    const id = await createConversation(a, {
      workspace: { working_dir: shared },
      confirmation_policy: { kind: 'AlwaysConfirm' },
      initial_message: { content: [{ type: 'text', text: 'do it once' }] },
    });
    await waitFor(async () => (await info(a, id)).execution_status === 'waiting_for_confirmation');
    llm.push(finishReply('done once'));
    const answers = await Promise.all(
      [b, c].map((replica) =>
        replica.call('POST', `/api/conversations/${id}/events/respond_to_confirmation`, { accept: true }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    await waitFor(async () => (await info(c, id)).execution_status === 'finished', 60_000);
    expect(await linesOf(marker)).toEqual(['once']);
    expect(llm.requests.length - before).toBe(2);
    const accepted = await events(a, id);
    const ran = accepted.filter((event) => event.kind === 'ObservationEvent' && event.tool_name === 'terminal');
    expect(ran).toHaveLength(1);
    expectOneBranch(accepted);

    // Rejections: both answer 200 or one is told the conversation is busy; the action is rejected once.
    llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: `echo never >> ${marker}` } }] });
    const second = await createConversation(a, {
      workspace: { working_dir: shared },
      confirmation_policy: { kind: 'AlwaysConfirm' },
      initial_message: { content: [{ type: 'text', text: 'ask first' }] },
    });
    await waitFor(async () => (await info(a, second)).execution_status === 'waiting_for_confirmation');
    const rejections = await Promise.all(
      [b, c].map((replica) =>
        replica.call('POST', `/api/conversations/${second}/events/respond_to_confirmation`, {
          accept: false,
          reason: 'no',
        }),
      ),
    );
    expect(rejections.some((answer) => answer.status === 200)).toBe(true);
    for (const answer of rejections) expect([200, 409]).toContain(answer.status);
    const rejected = await events(a, second);
    expect(rejected.filter((event) => event.kind === 'UserRejectObservation')).toHaveLength(1);
    expect((await info(a, second)).execution_status).toBe('idle');
    expect(await linesOf(marker)).toEqual(['once']);
  }, 180_000);

  it('streams a run on replica A to a socket on B, then on C after a reconnect: every event exactly once', async () => {
    const [a, b, c] = replicas as [TestServer, TestServer, TestServer];
    const steps = [1, 2, 3].map((step) => ({
      toolCalls: [{ name: 'terminal', arguments: { command: `sleep 0.4; echo ${step}` } }],
    }));
    llm.push(...steps, finishReply('streamed'));
    const id = await createConversation(a);
    const first = connectRecording(`${b.url.replace('http', 'ws')}/sockets/events/${id}?from_index=0`);
    await first.opened;
    await a.call('POST', `/api/conversations/${id}/events`, {
      content: [{ type: 'text', text: 'three steps' }],
      run: true,
    });
    // Leave B mid-run, after the first action.
    await first.waitFor((frames) => persistedFrames(frames).some((frame) => frame.kind === 'ActionEvent'), 60_000);
    first.ws.close();
    await first.closed;
    const seenOnB = persistedFrames(first.frames);

    const second = connectRecording(`${c.url.replace('http', 'ws')}/sockets/events/${id}?from_index=${seenOnB.length}`);
    await second.opened;
    await waitFor(async () => (await info(a, id)).execution_status === 'finished', 60_000);
    const all = await events(a, id);
    await second.waitFor((frames) => seenOnB.length + persistedFrames(frames).length >= all.length, 60_000);
    second.ws.close();
    const ids = [...seenOnB, ...persistedFrames(second.frames)].map((frame) => frame.id);
    expect(ids).toEqual(all.map((event) => event.id));
    expect(new Set(ids).size).toBe(ids.length);
  }, 180_000);
});

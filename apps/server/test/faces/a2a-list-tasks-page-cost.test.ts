// A page of ListTasks costs the page, not the server's history, through the official client (`@a2a-js/sdk`): after a
// restart (no conversation open), listing a page of many tasks opens only the conversations of that page, ordering
// and counting the rest from what the server stored for them, and lists them as opening every one would.
import type { ListTasksRequest, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory } from '@a2a-js/sdk/client';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfigInput } from '../../src/index.js';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer, tempDir } from '../helpers.js';
import { send, textPart, userMessage } from './a2a-client-support.js';

const TASKS = 6;

let dataDir: string;
let llm: ScriptedLLMServer;
let server: TestServer;
let client: Client;
/** Completed through A2A before the restart, the last one last. */
let done: Task[];

const listing = (overrides: Partial<ListTasksRequest> = {}): ListTasksRequest => ({
  tenant: '',
  contextId: '',
  status: 0,
  pageSize: undefined,
  pageToken: '',
  historyLength: undefined,
  statusTimestampAfter: undefined,
  includeArtifacts: false,
  ...overrides,
});

const config = (scripted: ScriptedLLMServer): Partial<ServerConfigInput> => ({
  a2aConversation: createRequest(scripted) as ServerConfigInput['a2aConversation'],
});

/** The ids of the conversations the restarted server has opened. */
async function openIds(): Promise<string[]> {
  const conversations = await server.built.manager.list();
  return conversations.filter((conversation) => conversation.isOpen).map((conversation) => conversation.id);
}

beforeAll(async () => {
  dataDir = await tempDir();
  llm = await startScriptedLLMServer();
  const first = await startTestServer({ dataDir, llm, config: config(llm) });
  const firstClient = await new ClientFactory().createFromUrl(first.url);
  done = [];
  for (let task = 0; task < TASKS; task += 1) {
    llm.push(finishReply(`answer ${task}`));
    done.push((await firstClient.sendMessage(send(userMessage([textPart(`question ${task}`)])))) as Task);
  }
  await first.built.close();
  server = await startTestServer({ dataDir, llm, config: config(llm) });
  client = await new ClientFactory().createFromUrl(server.url);
});
afterAll(async () => {
  await server.stop();
  await removeDir(dataDir);
});

describe('A2A ListTasks page cost, driven by @a2a-js/sdk', () => {
  it('opens only the conversations of the page, and lists them as their whole logs have them', async () => {
    expect(await openIds()).toEqual([]);
    const page = await client.listTasks(listing({ pageSize: 2, includeArtifacts: true }));

    const newestFirst = [...done].reverse();
    expect(page.tasks.map((task) => task.id)).toEqual(newestFirst.slice(0, 2).map((task) => task.id));
    expect(page.totalSize).toBe(TASKS);
    expect((await openIds()).sort()).toEqual(page.tasks.map((task) => task.id).sort());
    for (const [index, task] of page.tasks.entries()) {
      const before = newestFirst[index] as Task;
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(task.status?.timestamp).toBe(before.status?.timestamp);
      expect(task.artifacts[0]?.parts[0]?.content?.value).toBe(`answer ${TASKS - 1 - index}`);
    }

    const next = await client.listTasks(listing({ pageSize: 2, pageToken: page.nextPageToken }));
    expect(next.tasks.map((task) => task.id)).toEqual(newestFirst.slice(2, 4).map((task) => task.id));
    expect(await openIds()).toHaveLength(4);
  });

  it('filters by status and status time without opening the conversations it leaves out', async () => {
    const opened = new Set(await openIds());
    const oldest = done[0] as Task;
    const changedAfter = await client.listTasks(
      listing({ statusTimestampAfter: (done.at(-2) as Task).status?.timestamp, pageSize: 10 }),
    );
    expect(changedAfter.tasks.map((task) => task.id)).toEqual([(done.at(-1) as Task).id]);
    const working = await client.listTasks(listing({ status: TaskState.TASK_STATE_WORKING }));
    expect(working).toMatchObject({ tasks: [], totalSize: 0 });
    expect(opened.has(oldest.id)).toBe(false);
    expect(await openIds()).not.toContain(oldest.id);
  });
});

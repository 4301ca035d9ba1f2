// ListTasks at the edges, through the official client (`@a2a-js/sdk`): a damaged conversation is left out, tasks
// that changed in the same millisecond are ordered by id so a cursor lands on one place, pages of any size
// walk every task once, the status filter, and page tokens that only look like ours.
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ListTasksRequest, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory } from '@a2a-js/sdk/client';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfigInput } from '../../src/index.js';
import {
  createConversation,
  createRequest,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  tempDir,
} from '../helpers.js';
import { send, textPart, userMessage } from './a2a-client-support.js';

let dataDir: string;
let llm: ScriptedLLMServer;
let server: TestServer;
let client: Client;
/** Completed through A2A, the second one last. */
let done: Task[];
/** Created over REST and never run, after the completed ones. */
let idle: string[];
/** Copies of `idle[0]` under ids that sort before and after it: tasks that changed in the same millisecond. */
const TWINS = ['00000000-0000-4000-8000-000000000001', 'ffffffff-ffff-4fff-bfff-fffffffffffe'];
let damaged: string;

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

beforeAll(async () => {
  dataDir = await tempDir();
  llm = await startScriptedLLMServer();
  const first = await startTestServer({ dataDir, llm, config: config(llm) });
  const firstClient = await new ClientFactory().createFromUrl(first.url);
  llm.push(finishReply('one'), finishReply('two'));
  done = [];
  for (const text of ['first', 'second']) {
    done.push((await firstClient.sendMessage(send(userMessage([textPart(text)])))) as Task);
  }
  idle = [await createConversation(first), await createConversation(first), await createConversation(first)];
  damaged = await createConversation(first);
  await first.built.close();
  const root = join(dataDir, 'conversations');
  const hex = (id: string) => id.replace(/-/g, '');
  // A conversation's files under a new id: the same log, so the same status timestamp to the microsecond.
  for (const twin of TWINS) {
    const source = join(root, hex(idle[0]!));
    await cp(source, join(root, hex(twin)), { recursive: true });
    for (const file of ['meta.json', 'base_state.json']) {
      const path = join(root, hex(twin), file);
      const body = await readFile(path, 'utf8');
      await writeFile(path, body.replaceAll(idle[0]!, twin).replaceAll(hex(idle[0]!), hex(twin)));
    }
  }
  // A base state cut in half: the conversation cannot be opened, as after a crash mid-write.
  const baseState = join(root, hex(damaged), 'base_state.json');
  const text = await readFile(baseState, 'utf8');
  await writeFile(baseState, text.slice(0, Math.floor(text.length / 2)));
  server = await startTestServer({ dataDir, llm, config: config(llm) });
  client = await new ClientFactory().createFromUrl(server.url);
});
afterAll(async () => {
  await server.stop();
  await removeDir(dataDir);
});

/** Every task but the damaged one, most recently changed first, the three that changed together by id. */
const expectedOrder = (): string[] => [idle[2]!, idle[1]!, TWINS[0]!, idle[0]!, TWINS[1]!, done[1]!.id, done[0]!.id];

const token = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

async function rawListTasks(params: Record<string, unknown>): Promise<{ result?: { tasks: { id: string }[] } }> {
  const response = await fetch(`${server.url}/api/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params }),
  });
  return (await response.json()) as { result?: { tasks: { id: string }[] } };
}

describe('A2A ListTasks at the edges, driven by @a2a-js/sdk', () => {
  it('leaves a damaged conversation out and orders tasks that changed together by id', async () => {
    const listed = await client.listTasks(listing());
    expect(listed.tasks.map((task) => task.id)).toEqual(expectedOrder());
    expect(listed.tasks.map((task) => task.id)).not.toContain(damaged);
    const tied = listed.tasks.filter((task) => [idle[0], ...TWINS].includes(task.id));
    expect(new Set(tied.map((task) => task.status?.timestamp)).size).toBe(1);
    expect({ pageSize: listed.pageSize, totalSize: listed.totalSize }).toEqual({ pageSize: 7, totalSize: 7 });
  });

  it.each([1, 2, 3, 4])('walks every task once with pages of %i, each saying its own size', async (pageSize) => {
    const seen: string[] = [];
    let pageToken = '';
    do {
      const page = await client.listTasks(listing({ pageSize, pageToken }));
      expect(page.pageSize).toBe(page.tasks.length);
      expect(page.totalSize).toBe(7);
      seen.push(...page.tasks.map((task) => task.id));
      pageToken = page.nextPageToken;
    } while (pageToken !== '' && seen.length <= 7);
    expect(seen).toEqual(expectedOrder());
  });

  it('filters by status, and reads TASK_STATE_UNSPECIFIED as no filter', async () => {
    const completed = await client.listTasks(listing({ status: TaskState.TASK_STATE_COMPLETED }));
    expect(completed.tasks.map((task) => task.id)).toEqual([done[1]!.id, done[0]!.id]);
    const idleState = (await client.getTask({ tenant: '', id: idle[0]!, historyLength: undefined })).status?.state;
    const waiting = await client.listTasks(listing({ status: idleState }));
    expect(waiting.tasks.map((task) => task.id)).toEqual(expectedOrder().slice(0, 5));
    const unfiltered = await rawListTasks({ status: 'TASK_STATE_UNSPECIFIED' });
    expect(unfiltered.result?.tasks.map((task) => task.id)).toEqual(expectedOrder());
  });

  it('refuses a status that is no TaskState name rather than listing nothing', async () => {
    for (const status of ['completed', 'TASK_STATE_DONE']) {
      const reply = (await rawListTasks({ status })) as { error?: { code: number; message: string } };
      expect(reply.error).toMatchObject({
        code: -32602,
        message: expect.stringContaining(`params.status: '${status}'`),
      });
    }
  });

  it.each([
    ['a timestamp that is not a string', { timestamp: 1, id: 'x' }],
    ['an id that is not a string', { timestamp: '2024-01-01T00:00:00.000Z', id: 7 }],
    ['JSON null', null],
  ])('refuses a page token holding %s', async (_name, value) => {
    await expect(client.listTasks(listing({ pageToken: token(value) }))).rejects.toMatchObject({
      name: 'RequestMalformedError',
      message: expect.stringContaining('is not a token this server gave'),
    });
  });
});

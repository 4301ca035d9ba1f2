// ListTasks through the official client (`@a2a-js/sdk`), as §3.1.4 has it: most recently updated first, each task's
// status stamped with when it changed, `statusTimestampAfter` filtering on that, artifacts only when asked for, and
// a page token that walks every task once.
import type { ListTasksRequest, Task } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply } from '../helpers.js';
import { type A2aFixture, send, startA2aFixture, textPart, userMessage } from './a2a-client-support.js';

let fixture: A2aFixture;
let first: Task;
let second: Task;
let third: Task;

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

beforeAll(async () => {
  fixture = await startA2aFixture();
  const { client, server } = fixture;
  server.llm.push(finishReply('first done'), finishReply('second done'), finishReply('third done'));
  server.llm.push(finishReply('second again'));
  first = (await client.sendMessage(send(userMessage([textPart('First task')])))) as Task;
  second = (await client.sendMessage(send(userMessage([textPart('Second task')])))) as Task;
  third = (await client.sendMessage(send(userMessage([textPart('Third task')])))) as Task;
  // The second task changes last: it now comes first, then the third, then the first.
  second = (await client.sendMessage(
    send(userMessage([textPart('More for the second')], { taskId: second.id })),
  )) as Task;
});
afterAll(async () => {
  await fixture.stop();
});

describe('A2A ListTasks, driven by @a2a-js/sdk', () => {
  it('stamps each task status with when it last changed, in UTC', () => {
    for (const task of [first, second, third]) {
      expect(task.status?.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    expect(String(second.status?.timestamp) > String(third.status?.timestamp)).toBe(true);
    expect(String(third.status?.timestamp) > String(first.status?.timestamp)).toBe(true);
  });

  it('lists the most recently updated tasks first', async () => {
    const listed = await fixture.client.listTasks(listing());
    expect(listed.tasks.map((task) => task.id)).toEqual([second.id, third.id, first.id]);
    expect(listed.tasks.map((task) => task.status?.timestamp)).toEqual(
      [second, third, first].map((task) => task.status?.timestamp),
    );
  });

  it('keeps only tasks whose status changed after statusTimestampAfter', async () => {
    const listed = await fixture.client.listTasks(listing({ statusTimestampAfter: third.status?.timestamp }));
    expect(listed.tasks.map((task) => task.id)).toEqual([second.id]);
    expect(listed.totalSize).toBe(1);
  });

  it('leaves artifacts out unless asked for, and includes them when asked', async () => {
    const response = await fetch(`${fixture.server.url}/api/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }),
    });
    const raw = (await response.json()) as { result: { tasks: Record<string, unknown>[] } };
    expect(raw.result.tasks.map((task) => 'artifacts' in task)).toEqual([false, false, false]);
    const withArtifacts = await fixture.client.listTasks(listing({ includeArtifacts: true }));
    expect(withArtifacts.tasks.map((task) => task.artifacts[0]?.parts[0]?.content?.value)).toEqual([
      'second again',
      'third done',
      'first done',
    ]);
  });

  it('walks every task once with the page token, and refuses a token it did not give', async () => {
    const seen: string[] = [];
    let pageToken = '';
    do {
      const page = await fixture.client.listTasks(listing({ pageSize: 1, pageToken }));
      expect(page.tasks).toHaveLength(1);
      seen.push(...page.tasks.map((task) => task.id));
      pageToken = page.nextPageToken;
    } while (pageToken !== '');
    expect(seen).toEqual([second.id, third.id, first.id]);
    await expect(fixture.client.listTasks(listing({ pageToken: 'not-a-token' }))).rejects.toMatchObject({
      name: 'RequestMalformedError',
    });
  });
});

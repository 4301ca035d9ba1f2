import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseEvalSuite } from '@x/agent';
import { afterEach, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer, waitForIdle } from './helpers.js';

const KEY = 'insight-key';
const AUTH = { 'X-Session-API-Key': KEY };

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  if (server !== undefined) await removeDir(server.dataDir);
  server = undefined;
});

async function start(): Promise<TestServer> {
  server = await startTestServer({ config: { apiKeys: [KEY] } });
  return server;
}

async function finishedConversation(s: TestServer, text: string): Promise<string> {
  s.llm.push(finishReply(`Answer to ${text}`));
  const request = createRequest(s.llm, { initial_message: { content: text } });
  const { status, json } = await s.call('POST', '/api/conversations', request, AUTH);
  expect(status).toBe(201);
  const id = (json as { id: string }).id;
  await waitForIdle(s, id);
  return id;
}

describe('insight routes', { timeout: 120_000 }, () => {
  it('need the session key and are in the OpenAPI document', async () => {
    const s = await start();
    const id = await finishedConversation(s, 'hello');
    for (const [method, path] of [
      ['GET', `/api/conversations/${id}/branches`],
      ['GET', `/api/conversations/${id}/steps`],
      ['POST', `/api/conversations/${id}/eval_case`],
      ['GET', `/api/conversations/${id}/sub_conversations/${id}/events`],
    ] as const) {
      expect((await s.call(method, path, method === 'POST' ? {} : undefined)).status, path).toBe(401);
    }
    const { json } = await s.call('GET', '/openapi.json', undefined, AUTH);
    const paths = (json as { paths: Record<string, Record<string, { operationId?: string }>> }).paths;
    expect(paths['/api/conversations/{conversation_id}/branches']?.get?.operationId).toBe('getConversationBranches');
    expect(paths['/api/conversations/{conversation_id}/steps']?.get?.operationId).toBe('getConversationSteps');
    expect(paths['/api/conversations/{conversation_id}/eval_case']?.post?.operationId).toBe(
      'promoteConversationToEvalCase',
    );
  });

  it('lists a fork under its source, at the segment holding the event it was forked from', async () => {
    const s = await start();
    const id = await finishedConversation(s, 'fork source');
    const events = await s.call('GET', `/api/conversations/${id}/events/search?limit=100`, undefined, AUTH);
    const items = (events.json as { items: { id: string; kind: string; source: string }[] }).items;
    const userMessage = items.find((event) => event.kind === 'MessageEvent' && event.source === 'user');
    expect(userMessage).toBeDefined();
    const fork = await s.call('POST', `/api/conversations/${id}/fork`, { from_event_id: userMessage?.id }, AUTH);
    expect(fork.status).toBe(201);
    const forkId = (fork.json as { id: string }).id;

    const { status, json } = await s.call('GET', `/api/conversations/${id}/branches`, undefined, AUTH);
    expect(status).toBe(200);
    const branches = json as {
      segments: { id: string; first_event_id: string; last_event_id: string; active: boolean }[];
      forks: { conversation_id: string; from_event_id: string; segment_id: string }[];
      leaf_event_id: string;
    };
    expect(branches.segments).toHaveLength(1);
    expect(branches.segments[0]?.active).toBe(true);
    expect(branches.forks).toEqual([
      { conversation_id: forkId, from_event_id: userMessage?.id, segment_id: branches.segments[0]?.id },
    ]);
    const forkBranches = (await s.call('GET', `/api/conversations/${forkId}/branches`, undefined, AUTH)).json as {
      forked_from_conversation_id: string;
      forks: unknown[];
    };
    expect(forkBranches).toMatchObject({ forked_from_conversation_id: id, forks: [] });
  });

  it('answers a typed error for unknown conversations and sub-conversations, never a 500', async () => {
    const s = await start();
    const id = await finishedConversation(s, 'lonely');
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const path of ['branches', 'steps']) {
      const answer = await s.call('GET', `/api/conversations/${unknown}/${path}`, undefined, AUTH);
      expect(answer.status).toBe(404);
    }
    expect((await s.call('POST', `/api/conversations/${unknown}/eval_case`, {}, AUTH)).status).toBe(404);
    const notChild = await s.call(
      'GET',
      `/api/conversations/${id}/sub_conversations/${unknown}/events`,
      undefined,
      AUTH,
    );
    expect(notChild.status).toBe(404);
    const traversal = await s.call(
      'GET',
      `/api/conversations/${id}/sub_conversations/..%2F..%2Fx/events`,
      undefined,
      AUTH,
    );
    expect(traversal.status).toBe(404);
    const badCaseId = await s.call('POST', `/api/conversations/${id}/eval_case`, { id: '../escape' }, AUTH);
    expect(badCaseId.status).toBe(422);
  });

  it('gives the eval case for download: a suite parseEvalSuite accepts, naming the conversation directory', async () => {
    const s = await start();
    const id = await finishedConversation(s, 'promote me');
    const { status, json } = await s.call('POST', `/api/conversations/${id}/eval_case`, { id: 'promoted-case' }, AUTH);
    expect(status).toBe(200);
    const answer = json as { case: { id: string; conversation: string }; suite: unknown; file_name: string };
    expect(answer.file_name).toBe('promoted-case.eval.json');
    const suite = parseEvalSuite(answer.suite, { source: answer.file_name });
    expect(suite.cases).toHaveLength(1);
    expect(suite.cases[0]).toMatchObject({
      id: 'promoted-case',
      conversation: join(s.dataDir, 'conversations', id.replace(/-/g, '')),
      scorers: expect.arrayContaining([{ type: 'no-errors' }]),
    });
    expect(existsSync(join(answer.case.conversation, 'events'))).toBe(true);
  });
});

import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createConversation,
  createRequest,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  waitForIdle,
} from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ config: { bodyLimit: 64 * 1024 } });
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

type Info = Record<string, unknown>;

describe('create and get', () => {
  it('creates (201) with ConversationInfo, explicit nulls and a redacted key; the same id again is 200', async () => {
    const id = '5b7a1c02-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
    const created = await server.call(
      'POST',
      '/api/conversations',
      createRequest(server.llm, { conversation_id: id, tags: { team: 'a' } }),
    );
    expect(created.status).toBe(201);
    const info = created.json as Info;
    expect(info.id).toBe(id);
    expect(info.execution_status).toBe('idle');
    expect(info.title).toBeNull();
    expect(info.metrics).toBeNull();
    expect(info.security_analyzer).toBeNull();
    expect(info.tags).toEqual({ team: 'a' });
    expect(info.max_iterations).toBe(500);
    expect(JSON.stringify(info)).not.toContain('sk-test-secret');
    expect(typeof info.created_at).toBe('string');

    const again = await server.call(
      'POST',
      '/api/conversations',
      createRequest(server.llm, { conversation_id: id.replace(/-/g, '') }),
    );
    expect(again.status).toBe(200);
    expect((again.json as Info).id).toBe(id);

    const fetched = await server.call('GET', `/api/conversations/${id.replace(/-/g, '')}`);
    expect(fetched.status).toBe(200);
    expect((fetched.json as Info).id).toBe(id);

    const meta = JSON.parse(
      await readFile(join(server.dataDir, 'conversations', id.replace(/-/g, ''), 'meta.json'), 'utf8'),
    );
    expect(meta.id).toBe(id.replace(/-/g, ''));
    expect(meta.agent.llm.api_key).toBe('**********');
    expect(meta.tags).toEqual({ team: 'a' });
  });

  it('runs the initial message (even with run: false) and serves the final response', async () => {
    server.llm.push(finishReply('All done.'));
    const id = await createConversation(server, {
      initial_message: { content: [{ type: 'text', text: 'Say done' }], run: false },
    });
    const info = await waitForIdle(server, id);
    expect(info.execution_status).toBe('finished');
    expect(info.metrics).not.toBeNull();
    const final = await server.call('GET', `/api/conversations/${id}/agent_final_response`);
    expect(final).toEqual({ status: 200, json: { response: 'All done.' } });
  });

  it('answers the batch get with null for unknown ids', async () => {
    const id = await createConversation(server);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const { status, json } = await server.call('GET', `/api/conversations?ids=${id}&ids=${unknown}`);
    expect(status).toBe(200);
    expect((json as (Info | null)[]).map((item) => item?.id ?? null)).toEqual([id, null]);
  });
});

describe('side routes', () => {
  it('answers ask_agent, generates a title, and patches title and tags', async () => {
    const id = await createConversation(server);
    await server.call('POST', `/api/conversations/${id}/events`, {
      content: [{ type: 'text', text: 'Plan a trip to Rome' }],
    });
    server.llm.push({ content: 'Rome is in Italy.' });
    const asked = await server.call('POST', `/api/conversations/${id}/ask_agent`, { question: 'Where is Rome?' });
    expect(asked).toEqual({ status: 200, json: { response: 'Rome is in Italy.' } });

    server.llm.push({ content: 'Rome trip' });
    const titled = await server.call('POST', `/api/conversations/${id}/generate_title`);
    expect(titled.status).toBe(200);
    const { title } = titled.json as { title: string };
    expect(title.length).toBeGreaterThan(0);
    expect((await server.call('GET', `/api/conversations/${id}`)).json).toMatchObject({ title });

    const patched = await server.call('PATCH', `/api/conversations/${id}`, {
      title: '  Renamed  ',
      tags: { env: 'prod' },
    });
    expect(patched).toEqual({ status: 200, json: { success: true } });
    expect((await server.call('GET', `/api/conversations/${id}`)).json).toMatchObject({
      title: 'Renamed',
      tags: { env: 'prod' },
    });

    const unknown = await server.call('PATCH', '/api/conversations/00000000000040008000000000000000', { title: 'x' });
    expect(unknown).toEqual({ status: 200, json: { success: false } });
  });

  it('refuses condense without a condenser (400) and condenses with one', async () => {
    const id = await createConversation(server);
    const refused = await server.call('POST', `/api/conversations/${id}/condense`);
    expect(refused.status).toBe(400);
    expect((refused.json as { detail: string }).detail).toMatch(/condenser/);

    const withCondenser = await createConversation(server, {
      agent: {
        llm: { model: 'gpt-test', base_url: server.llm.baseURL, api_key: 'k' },
        condenser: { kind: 'LLMSummarizingCondenser', max_size: 80, keep_first: 1 },
      },
    });
    await server.call('POST', `/api/conversations/${withCondenser}/events`, {
      content: [{ type: 'text', text: 'one' }],
    });
    server.llm.push({ content: 'summary of the conversation' });
    const condensed = await server.call('POST', `/api/conversations/${withCondenser}/condense`);
    expect(condensed).toEqual({ status: 200, json: { success: true } });
    expect(
      (await server.call('GET', `/api/conversations/${withCondenser}/events/count?kind=CondensationRequest`)).json,
    ).toBe(1);
  });

  it('rejects an unknown condenser kind with 422', async () => {
    const { status, json } = await server.call('POST', '/api/conversations', {
      agent: { llm: { model: 'gpt-test', base_url: server.llm.baseURL }, condenser: { kind: 'Nope' } },
    });
    expect(status).toBe(422);
    expect(JSON.stringify(json)).toContain('Nope');
  });

  it('deletes a conversation; deleting or pausing an unknown one is 400 as in the reference', async () => {
    const id = await createConversation(server);
    expect(await server.call('DELETE', `/api/conversations/${id}`)).toEqual({ status: 200, json: { success: true } });
    expect((await server.call('GET', `/api/conversations/${id}`)).status).toBe(404);
    expect((await server.call('DELETE', `/api/conversations/${id}`)).status).toBe(400);
    expect((await server.call('POST', `/api/conversations/${id}/pause`)).status).toBe(400);
  });
});

describe('errors', () => {
  const unknown = '0123456789abcdef0123456789abcdef';

  it('answers 404 with the reference detail for unknown conversations on every per-conversation route', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', `/api/conversations/${unknown}`],
      ['GET', `/api/conversations/${unknown}/agent_final_response`],
      ['POST', `/api/conversations/${unknown}/events`, { content: [] }],
      ['POST', `/api/conversations/${unknown}/run`],
      ['POST', `/api/conversations/${unknown}/confirmation_policy`, { policy: { kind: 'NeverConfirm' } }],
      ['POST', `/api/conversations/${unknown}/events/respond_to_confirmation`, { accept: true }],
      ['POST', `/api/conversations/${unknown}/condense`],
      ['POST', `/api/conversations/${unknown}/ask_agent`, { question: 'q' }],
      ['POST', `/api/conversations/${unknown}/generate_title`],
      ['GET', `/api/conversations/${unknown}/events/search`],
      ['GET', `/api/conversations/${unknown}/events/count`],
      ['GET', `/api/conversations/${unknown}/events/some-event`],
    ];
    for (const [method, path, body] of routes) {
      const { status, json } = await server.call(method, path, body);
      expect({ path, status }).toEqual({ path, status: 404 });
      expect(json).toEqual({ detail: `Conversation not found: ${unknown}` });
    }
  });

  it('answers 404 for an unknown event id', async () => {
    const id = await createConversation(server);
    const { status, json } = await server.call('GET', `/api/conversations/${id}/events/not-an-event`);
    expect(status).toBe(404);
    expect((json as { detail: string }).detail).toContain('not-an-event');
  });

  it('answers 400 for malformed JSON, with a clear message', async () => {
    const { status, json } = await server.call('POST', '/api/conversations', '{"agent": ');
    expect(status).toBe(400);
    expect((json as { detail: string }).detail).toMatch(/^Malformed JSON body: /);
  });

  it('answers 422 naming the field for schema violations', async () => {
    const missing = await server.call('POST', '/api/conversations', { agent: { tools: [] } });
    expect(missing.status).toBe(422);
    expect((missing.json as { detail: { loc: string[] }[] }).detail.map((issue) => issue.loc.join('.'))).toContain(
      'body.agent.llm',
    );

    const badTool = await server.call('POST', '/api/conversations', createRequest(server.llm, { max_iterations: 0 }));
    expect(badTool.status).toBe(422);
    expect(JSON.stringify(badTool.json)).toContain('max_iterations');

    const id = await createConversation(server);
    const badMessage = await server.call('POST', `/api/conversations/${id}/events`, { content: 'not a list' });
    expect(badMessage.status).toBe(422);
    expect(JSON.stringify(badMessage.json)).toContain('content');

    const badLimit = await server.call('GET', '/api/conversations/search?limit=101');
    expect(badLimit.status).toBe(422);
    expect(JSON.stringify(badLimit.json)).toContain('limit');
  });

  it('answers 413 for a body over the limit and keeps serving', async () => {
    const big = { ...createRequest(server.llm), padding: 'x'.repeat(70 * 1024) };
    const { status, json } = await server.call('POST', '/api/conversations', big);
    expect(status).toBe(413);
    expect(typeof (json as { detail: string }).detail).toBe('string');
    expect((await server.call('GET', '/health')).status).toBe(200);
  });

  it('refuses traversal and malformed ids before storage (400/404)', async () => {
    for (const path of [
      '/api/conversations/..%2F..',
      '/api/conversations/..%2F..%2Fetc/events/search',
      '/api/conversations/abc',
    ]) {
      const { status } = await server.call('GET', path);
      expect([400, 404]).toContain(status);
    }
    // A raw path the client does not normalise.
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(server.url);
      const request = httpRequest(
        { host: url.hostname, port: url.port, path: '/api/conversations/../x', method: 'GET' },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end();
    });
    expect([400, 404]).toContain(status);
    expect((await server.call('GET', '/api/conversations/..%2F..')).json).toMatchObject({
      detail: expect.stringContaining('Invalid'),
    });
  });

  it('serves the OpenAPI document, health and info', async () => {
    const openapi = await server.call('GET', '/openapi.json');
    expect(openapi.status).toBe(200);
    const paths = Object.keys((openapi.json as { paths: Record<string, unknown> }).paths);
    expect(paths).toContain('/api/conversations/{conversation_id}/events/search');
    expect((await server.call('GET', '/alive')).status).toBe(200);
    expect((await server.call('GET', '/health')).json).toEqual({ status: 'ok' });
    expect((await server.call('GET', '/server_info')).json).toMatchObject({ version: expect.any(String) });
  });

  it('counts and searches conversations by status with pagination', async () => {
    const all = (await server.call('GET', '/api/conversations/count')).json as number;
    expect(all).toBeGreaterThan(3);
    const finished = (await server.call('GET', '/api/conversations/count?status=finished')).json as number;
    expect(finished).toBeGreaterThan(0);
    expect(finished).toBeLessThan(all);

    const seen: string[] = [];
    let page: string | null = null;
    do {
      const query: string = page === null ? 'limit=2' : `limit=2&page_id=${page}`;
      const { json } = await server.call('GET', `/api/conversations/search?${query}`);
      const result = json as { items: Info[]; next_page_id: string | null };
      expect(result.items.length).toBeLessThanOrEqual(2);
      seen.push(...result.items.map((item) => item.id as string));
      page = result.next_page_id;
    } while (page !== null);
    expect(seen).toHaveLength(all);
    expect(new Set(seen).size).toBe(all);
    const created = await Promise.all(
      seen.map(
        async (id) => ((await server.call('GET', `/api/conversations/${id}`)).json as Info).created_at as string,
      ),
    );
    expect([...created].sort().reverse()).toEqual(created);

    const onlyFinished = await server.call('GET', '/api/conversations/search?status=finished&sort_order=CREATED_AT');
    const items = (onlyFinished.json as { items: Info[] }).items;
    expect(items).toHaveLength(finished);
    expect(items.every((item) => item.execution_status === 'finished')).toBe(true);
  });
});

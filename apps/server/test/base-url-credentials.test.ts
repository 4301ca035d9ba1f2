import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { finishReply, removeDir, startTestServer, tempDir, waitForIdle } from './helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

const basic = `Basic ${Buffer.from('ci:p@ssw0rd-9').toString('base64')}`;

/** The scripted server's URL with userinfo and a key in its query. */
function withCredentials(baseURL: string): string {
  const url = new URL(baseURL);
  return `${url.protocol}//ci:p%40ssw0rd-9@${url.host}${url.pathname}?key=k-secret-1&region=eu`;
}

function create(baseURL: string) {
  return {
    agent: { llm: { model: 'gpt-test', base_url: baseURL, api_key: 'sk-test-secret' }, tools: [] },
    initial_message: { content: 'first task' },
  };
}

async function metaText(dataDir: string, id: string): Promise<string> {
  return readFile(join(dataDir, 'conversations', id.replace(/-/g, ''), 'meta.json'), 'utf8');
}

function expectNoCredentials(text: string): void {
  for (const secret of ['p%40ssw0rd-9', 'p@ssw0rd-9', 'k-secret-1']) expect(text).not.toContain(secret);
}

describe('a base URL with credentials', () => {
  it('is masked in responses and meta.json, kept encrypted, and a resumed conversation still reaches the model', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const llm = await startScriptedLLMServer();
    try {
      const first = await startTestServer({ dataDir, llm, config: { secretKey: 'server-secret' } });
      llm.push(finishReply('first answer'));
      const created = await first.call('POST', '/api/conversations', create(withCredentials(llm.baseURL)));
      expect(created.status).toBe(201);
      const id = (created.json as { id: string }).id;
      expect((await waitForIdle(first, id)).execution_status).toBe('finished');
      expect(llm.requestHeaders[0]?.authorization).toBe(basic);
      expect(llm.requestQueries[0]).toBe('?key=k-secret-1&region=eu');

      expectNoCredentials(JSON.stringify(created.json));
      const info = (await first.call('GET', `/api/conversations/${id}`)).json as {
        agent: { llm: Record<string, unknown> };
      };
      expectNoCredentials(JSON.stringify(info));
      expect(info.agent.llm.base_url).toBe(
        `${withCredentials(llm.baseURL).replace('p%40ssw0rd-9', '<secret-hidden>').replace('k-secret-1', '<secret-hidden>')}`,
      );
      expect(info.agent.llm.x_base_url_encrypted).toBeUndefined();
      const meta = await metaText(dataDir, id);
      expectNoCredentials(meta);
      expect(JSON.parse(meta).agent.llm.x_base_url_encrypted).toMatch(/^gAAAAA/);
      await first.built.close();

      const second = await startTestServer({ dataDir, llm, config: { secretKey: 'server-secret' } });
      llm.push(finishReply('second answer'));
      await second.call('POST', `/api/conversations/${id}/events`, {
        content: [{ type: 'text', text: 'again' }],
        run: true,
      });
      expect((await waitForIdle(second, id)).execution_status).toBe('finished');
      expect(llm.requestHeaders.at(-1)?.authorization).toBe(basic);
      expect(llm.requestQueries.at(-1)).toBe('?key=k-secret-1&region=eu');
      await second.built.close();
    } finally {
      await llm.close();
    }
  });

  it('without a secret key is stored masked only, and a create body holding a masked one is refused naming it', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const llm = await startScriptedLLMServer();
    try {
      const server = await startTestServer({ dataDir, llm });
      llm.push(finishReply('first answer'));
      const created = await server.call('POST', '/api/conversations', create(withCredentials(llm.baseURL)));
      const id = (created.json as { id: string }).id;
      expect((await waitForIdle(server, id)).execution_status).toBe('finished');
      const meta = await metaText(dataDir, id);
      expectNoCredentials(meta);
      expect(JSON.parse(meta).agent.llm.x_base_url_encrypted).toBeUndefined();
      const masked = JSON.parse(meta).agent.llm.base_url as string;
      const refused = await server.call('POST', '/api/conversations', create(masked));
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.json)).toContain('agent.llm.base_url: its credentials are masked');
      await server.built.close();

      // A meta.json an older server wrote, the URL in clear: responses still show it masked, and it still runs.
      const old = JSON.parse(meta);
      old.agent.llm.base_url = withCredentials(llm.baseURL);
      await writeFile(join(dataDir, 'conversations', id.replace(/-/g, ''), 'meta.json'), JSON.stringify(old));
      const again = await startTestServer({ dataDir, llm });
      const info = (await again.call('GET', `/api/conversations/${id}`)).json;
      expect(JSON.stringify(info)).toContain('<secret-hidden>');
      expectNoCredentials(JSON.stringify(info));
      await again.built.close();
    } finally {
      await llm.close();
    }
  });
});

// A conversation whose meta.json still says `running` after the server stopped (a crash mid-run) is not running:
// search and count by status open it and go by its live status, not by the stale hint.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createConversation, removeDir, startTestServer, tempDir } from './helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

describe('listing by status after a crash mid-run', () => {
  it('neither counts nor finds a conversation as running because its meta.json says so', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const llm = await startScriptedLLMServer();
    try {
      const first = await startTestServer({ dataDir, llm });
      const id = await createConversation(first);
      await first.built.close();
      const metaPath = join(dataDir, 'conversations', id.replace(/-/g, ''), 'meta.json');
      const meta = JSON.parse(await readFile(metaPath, 'utf8')) as Record<string, unknown>;
      await writeFile(metaPath, JSON.stringify({ ...meta, execution_status: 'running' }));

      const second = await startTestServer({ dataDir, llm });
      try {
        expect((await second.call('GET', '/api/conversations/count?status=running')).json).toBe(0);
        const running = await second.call('GET', '/api/conversations/search?status=running');
        expect(running).toEqual({ status: 200, json: { items: [], next_page_id: null } });
        const all = await second.call('GET', '/api/conversations/search');
        const [info] = (all.json as { items: { id: string; execution_status: string }[] }).items;
        expect(info?.id).toBe(id);
        expect(info?.execution_status).not.toBe('running');
        const live = await second.call('GET', `/api/conversations/count?status=${info?.execution_status}`);
        expect(live.json).toBe(1);
      } finally {
        await second.built.close();
      }
    } finally {
      await llm.close();
    }
  });
});

import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createConversation, removeDir, startTestServer, tempDir } from './helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

const hex = (id: string): string => id.replace(/-/g, '');

describe('damaged conversations', () => {
  it('are left out of search, count and batch get (which keep serving the others); GET says why (409)', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const llm = await startScriptedLLMServer();
    try {
      const first = await startTestServer({ dataDir, llm });
      const healthy = await createConversation(first);
      const truncated = await createConversation(first);
      const metaOnly = await createConversation(first);
      const runningMetaOnly = await createConversation(first);
      await first.built.close();

      const root = join(dataDir, 'conversations');
      const baseState = join(root, hex(truncated), 'base_state.json');
      const text = await readFile(baseState, 'utf8');
      await writeFile(baseState, text.slice(0, Math.floor(text.length / 2)));
      for (const id of [metaOnly, runningMetaOnly]) {
        const meta = await readFile(join(root, hex(id), 'meta.json'), 'utf8');
        await rm(join(root, hex(id)), { recursive: true });
        const status = id === runningMetaOnly ? 'running' : 'idle';
        await cp(join(root, hex(healthy), 'meta.json'), join(root, hex(id), 'meta.json')).catch(() => undefined);
        await writeFile(
          join(root, hex(id), 'meta.json'),
          JSON.stringify({ ...JSON.parse(meta), execution_status: status }),
        );
      }

      const second = await startTestServer({ dataDir, llm });
      try {
        const search = await second.call('GET', '/api/conversations/search');
        expect(search.status).toBe(200);
        const listed = (search.json as { items: { id: string }[] }).items.map((item) => item.id);
        expect(listed).toEqual([healthy]);

        const batch = await second.call(
          'GET',
          `/api/conversations?ids=${healthy}&ids=${truncated}&ids=${metaOnly}&ids=${runningMetaOnly}`,
        );
        expect(batch.status).toBe(200);
        expect((batch.json as ({ id: string } | null)[]).map((item) => item?.id ?? null)).toEqual([
          healthy,
          null,
          null,
          null,
        ]);

        for (const query of ['', '?status=idle', '?status=running', '?status=error']) {
          const count = await second.call('GET', `/api/conversations/count${query}`);
          expect({ query, status: count.status }).toEqual({ query, status: 200 });
        }
        expect((await second.call('GET', '/api/conversations/count')).json).toBe(1);

        for (const id of [truncated, metaOnly, runningMetaOnly]) {
          const one = await second.call('GET', `/api/conversations/${id}`);
          expect(one.status).toBe(409);
          expect((one.json as { detail: string }).detail).toMatch(new RegExp(`^Conversation ${id} is damaged`));
          const events = await second.call('GET', `/api/conversations/${id}/events/search`);
          expect(events.status).toBe(409);
        }
        // A damaged conversation can still be deleted.
        expect((await second.call('DELETE', `/api/conversations/${truncated}`)).status).toBe(200);
        expect((await second.call('GET', `/api/conversations/${truncated}`)).status).toBe(404);
      } finally {
        await second.built.close();
      }
    } finally {
      await llm.close();
    }
  });
});

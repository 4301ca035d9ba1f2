import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startScriptedLLMServer } from '@x/agent/testing';
import { createLocalFileStore, verifyEventChain } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import { createConversation, finishReply, removeDir, startTestServer, tempDir, waitForIdle } from './helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

type Info = Record<string, unknown>;

describe('eventLogLayout: segment', () => {
  it('commits conversations to a segment, derives the event files, and serves and runs them after a restart', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const llm = await startScriptedLLMServer();
    try {
      const config = { eventLogLayout: 'segment' as const };
      const first = await startTestServer({ dataDir, llm, config });
      llm.push(finishReply('first answer'));
      const id = await createConversation(first, { initial_message: { content: 'first task' } });
      expect((await waitForIdle(first, id)).execution_status).toBe('finished');
      const before = (await first.call('GET', `/api/conversations/${id}/events/search`)).json as { items: Info[] };
      await first.built.close();

      const conversationDir = join(dataDir, 'conversations', id.replace(/-/g, ''));
      expect(await readdir(join(conversationDir, 'events', '.slots'))).toEqual(['segment']);
      const eventFiles = (await readdir(join(conversationDir, 'events'))).filter((name) => name.startsWith('event-'));
      expect(eventFiles).toHaveLength(before.items.length);
      const store = createLocalFileStore({ root: conversationDir, durability: 'none' });
      expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: before.items.length });

      // Restarted with the default layout: the conversation keeps its segment.
      const second = await startTestServer({ dataDir, llm });
      const after = (await second.call('GET', `/api/conversations/${id}/events/search`)).json as { items: Info[] };
      expect(after.items).toEqual(before.items);
      llm.push(finishReply('second answer'));
      await second.call('POST', `/api/conversations/${id}/events`, {
        content: [{ type: 'text', text: 'again' }],
        run: true,
      });
      expect((await waitForIdle(second, id)).execution_status).toBe('finished');
      await second.built.close();
      expect(await readdir(join(conversationDir, 'events', '.slots'))).toEqual(['segment']);
      expect(await verifyEventChain(store)).toMatchObject({ status: 'verified' });
    } finally {
      await llm.close();
    }
  }, 120_000);
});

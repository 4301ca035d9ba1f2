import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { INTERRUPTED_ACTION_TEXT } from '@x/agent';
import { startScriptedLLMServer } from '@x/agent/testing';
import { createEvent } from '@x/events';
import { createLocalFileStore, EventLog } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import { RESTART_ERROR_TEXT } from '../src/index.js';
import {
  createConversation,
  finishReply,
  removeDir,
  startTestServer,
  tempDir,
  waitFor,
  waitForIdle,
} from './helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

type Info = Record<string, unknown>;

describe('restart', () => {
  it('lists, serves and runs again a conversation after the server is rebuilt on the same data dir', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const llm = await startScriptedLLMServer();
    try {
      const first = await startTestServer({ dataDir, llm, config: { secretKey: 'server-secret' } });
      llm.push(finishReply('first answer'));
      const id = await createConversation(first, { initial_message: { content: 'first task' } });
      expect((await waitForIdle(first, id)).execution_status).toBe('finished');
      const before = (await first.call('GET', `/api/conversations/${id}/events/search`)).json as { items: Info[] };
      await first.built.close();

      const meta = JSON.parse(
        await readFile(join(dataDir, 'conversations', id.replace(/-/g, ''), 'meta.json'), 'utf8'),
      );
      expect(meta.agent.llm.api_key).toMatch(/^gAAAAA/);

      const second = await startTestServer({ dataDir, llm, config: { secretKey: 'server-secret' } });
      const listed = (await second.call('GET', '/api/conversations/search')).json as { items: Info[] };
      expect(listed.items.map((item) => item.id)).toEqual([id]);
      expect(listed.items[0]).toMatchObject({ execution_status: 'finished', created_at: meta.created_at });
      const after = (await second.call('GET', `/api/conversations/${id}/events/search`)).json as { items: Info[] };
      expect(after.items).toEqual(before.items);

      llm.push(finishReply('second answer'));
      await second.call('POST', `/api/conversations/${id}/events`, {
        content: [{ type: 'text', text: 'again' }],
        run: true,
      });
      expect((await waitForIdle(second, id)).execution_status).toBe('finished');
      expect((await second.call('GET', `/api/conversations/${id}/agent_final_response`)).json).toEqual({
        response: 'second answer',
      });
      // The decrypted stored key reached the model.
      expect(llm.requestHeaders.at(-1)?.authorization).toBe('Bearer sk-test-secret');
      await second.built.close();
    } finally {
      await llm.close();
    }
  });

  it('recovers a conversation persisted as running: status error and the restart AgentErrorEvent', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const first = await startTestServer({ dataDir });
    const id = await createConversation(first);
    await first.stop();

    // What a crash in the middle of a terminal command leaves behind.
    const hex = id.replace(/-/g, '');
    const store = createLocalFileStore({ root: join(dataDir, 'conversations') });
    const log = await EventLog.open(store, { dir: `${hex}/events` });
    await log.append(createEvent('ConversationStateUpdateEvent', { key: 'execution_status', value: 'running' }));
    const action = createEvent('ActionEvent', {
      thought: [],
      action: { kind: 'TerminalAction', command: 'sleep 100' },
      tool_name: 'terminal',
      tool_call_id: 'call_crash',
      tool_call: { id: 'call_crash', name: 'terminal', arguments: '{"command":"sleep 100"}', origin: 'completion' },
      llm_response_id: 'resp_crash',
    });
    await log.append(action);
    const metaPath = join(dataDir, 'conversations', hex, 'meta.json');
    const meta = JSON.parse(await readFile(metaPath, 'utf8'));
    await writeFile(metaPath, JSON.stringify({ ...meta, execution_status: 'running' }));

    const second = await startTestServer({ dataDir });
    try {
      const running = (await second.call('GET', '/api/conversations/count?status=running')).json;
      expect(running).toBe(0);
      const info = (await second.call('GET', `/api/conversations/${id}`)).json as Info;
      expect(info.execution_status).toBe('error');
      const errors = (await second.call('GET', `/api/conversations/${id}/events/search?kind=AgentErrorEvent`)).json as {
        items: Info[];
      };
      expect(errors.items).toHaveLength(1);
      expect(errors.items[0]).toMatchObject({
        parent_id: action.id,
        tool_name: 'terminal',
        tool_call_id: 'call_crash',
        error: RESTART_ERROR_TEXT,
        classification: { kind: 'internal', retryable: false },
      });
    } finally {
      await second.stop();
    }
  });

  /** A conversation on `dataDir` left as a crash in the middle of a terminal command leaves it; its action. */
  async function crashMidAction(dataDir: string, id: string) {
    const hex = id.replace(/-/g, '');
    const store = createLocalFileStore({ root: join(dataDir, 'conversations') });
    const log = await EventLog.open(store, { dir: `${hex}/events` });
    await log.append(createEvent('ConversationStateUpdateEvent', { key: 'execution_status', value: 'running' }));
    const action = createEvent('ActionEvent', {
      thought: [],
      action: { kind: 'TerminalAction', command: 'echo ran >> ran.txt' },
      tool_name: 'terminal',
      tool_call_id: 'call_crash',
      tool_call: {
        id: 'call_crash',
        name: 'terminal',
        arguments: '{"command":"echo ran >> ran.txt"}',
        origin: 'completion',
      },
      llm_response_id: 'resp_crash',
    });
    await log.append(action);
    const metaPath = join(dataDir, 'conversations', hex, 'meta.json');
    const meta = JSON.parse(await readFile(metaPath, 'utf8'));
    await writeFile(metaPath, JSON.stringify({ ...meta, execution_status: 'running' }));
    return action;
  }

  it('with interruptedActions, resumes at start-up the run a crash cut off: its action reported, not re-run', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const llm = await startScriptedLLMServer();
    try {
      const first = await startTestServer({ dataDir, llm });
      const id = await createConversation(first);
      await first.built.close();
      const action = await crashMidAction(dataDir, id);

      llm.push(finishReply('checked'));
      const second = await startTestServer({ dataDir, llm, config: { interruptedActions: 'report' } });
      try {
        // No request asks for it: the start-up resumed the run, which finishes.
        await waitFor(
          async () => (await second.built.manager.get(id))?.isRunning === false && llm.requests.length === 1,
        );
        const info = await waitForIdle(second, id);
        expect(info.execution_status).toBe('finished');
        const events = (
          (await second.call('GET', `/api/conversations/${id}/events/search?limit=100`)).json as {
            items: Info[];
          }
        ).items;
        const errors = events.filter((event) => event.kind === 'AgentErrorEvent');
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({
          parent_id: action.id,
          tool_call_id: 'call_crash',
          error: INTERRUPTED_ACTION_TEXT,
        });
        expect(JSON.stringify(llm.requests[0])).toContain('whether it had any effect is unknown');
        const workspace = (info.workspace as { working_dir: string }).working_dir;
        await expect(readFile(join(workspace, 'ran.txt'), 'utf8')).rejects.toThrow();
      } finally {
        await second.built.close();
      }
    } finally {
      await llm.close();
    }
  });

  it("with interruptedActions 'confirm', leaves the cut-off action to a human at start-up", async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const llm = await startScriptedLLMServer();
    try {
      const first = await startTestServer({ dataDir, llm });
      const id = await createConversation(first);
      await first.built.close();
      await crashMidAction(dataDir, id);
      const second = await startTestServer({ dataDir, llm, config: { interruptedActions: 'confirm' } });
      try {
        const info = (await second.call('GET', `/api/conversations/${id}`)).json as Info;
        expect(info.execution_status).toBe('waiting_for_confirmation');
        expect(llm.requests).toHaveLength(0);
        const pending = (await second.call('GET', `/api/conversations/${id}/events/search?kind=AgentErrorEvent`))
          .json as { items: Info[] };
        expect(pending.items).toHaveLength(0);
      } finally {
        await second.built.close();
      }
    } finally {
      await llm.close();
    }
  });
});

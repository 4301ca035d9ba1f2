import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedLLMServer } from '@x/agent/testing';
import { createLocalFileStore } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import { readConversationMeta } from '../../src/conversations/conversation-meta.js';
import { finishReply, removeDir, startTestServer, tempDir, waitForIdle } from '../helpers.js';

/**
 * A data directory the reference agent-server wrote: its meta.json is a StoredConversation, which does not carry the
 * agent (base_state.json is the agent's only record), keeps the secrets map and leaves the execution status to
 * base_state.json. The conversation itself is one the reference SDK wrote (shared fixtures).
 */
const fixtureDir = fileURLToPath(
  new URL('../../../../packages/events/test/__fixtures__/openhands/01_simple_message_reply', import.meta.url),
);

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

type Info = Record<string, unknown>;

/** meta.json as the reference's `StoredConversation.model_dump_json()` writes it (every field, its defaults). */
function referenceMeta(hex: string, workingDir: string): Record<string, unknown> {
  return {
    workspace: { working_dir: workingDir, kind: 'LocalWorkspace' },
    worktree: false,
    conversation_id: null,
    parent_conversation_id: null,
    confirmation_policy: { kind: 'NeverConfirm' },
    security_analyzer: null,
    initial_message: null,
    max_iterations: 120,
    stuck_detection: true,
    secrets: {},
    secrets_encrypted: false,
    tool_module_qualnames: {},
    client_tools: [],
    agent_launch_additions: null,
    agent_definitions: [],
    plugins: null,
    hook_config: null,
    tags: { project: 'migrated' },
    observability_metadata: {},
    observability_tags: [],
    observability_span_name: 'conversation',
    required_runtime_credential_bindings: [],
    id: hex,
    title: 'Written by the reference server',
    metrics: null,
    created_at: '2026-11-20T10:00:00.123456Z',
    updated_at: '2026-11-20T10:05:00.654321Z',
    forked_from_conversation_id: null,
    forked_from_event_id: null,
    launched_agent_profile: null,
  };
}

async function referenceServerDataDir(llmBaseURL: string): Promise<{ dataDir: string; id: string; hex: string }> {
  const dataDir = await tempDir();
  dirs.push(dataDir);
  const workingDir = join(dataDir, 'project');
  await mkdir(workingDir);
  const baseState = JSON.parse(await readFile(join(fixtureDir, 'base_state.json'), 'utf8'));
  const id = baseState.id as string;
  const hex = id.replace(/-/g, '');
  const conversationDir = join(dataDir, 'conversations', hex);
  await mkdir(conversationDir, { recursive: true });
  await cp(join(fixtureDir, 'events'), join(conversationDir, 'events'), { recursive: true });
  // Loopback only: the model the reference ran against is replaced by this test's scripted one.
  baseState.agent.llm.base_url = llmBaseURL;
  baseState.workspace.working_dir = workingDir;
  await writeFile(join(conversationDir, 'base_state.json'), JSON.stringify(baseState));
  await writeFile(join(conversationDir, 'meta.json'), JSON.stringify(referenceMeta(hex, workingDir)));
  return { dataDir, id, hex };
}

describe('a data directory written by the reference agent-server', () => {
  it('is listed, served and continued: the agent comes from base_state.json, the status from the state', async () => {
    const llm = await startScriptedLLMServer();
    const { dataDir, id } = await referenceServerDataDir(llm.baseURL);
    const server = await startTestServer({ dataDir, llm });
    try {
      const listed = (await server.call('GET', '/api/conversations/search')).json as { items: Info[] };
      expect(listed.items.map((item) => item.id)).toEqual([id]);
      expect(listed.items[0]).toMatchObject({
        title: 'Written by the reference server',
        tags: { project: 'migrated' },
        execution_status: 'finished',
        max_iterations: 120,
      });
      expect(((await server.call('GET', '/api/conversations/count')).json as number) ?? 0).toBe(1);
      const finished = (await server.call('GET', '/api/conversations/search?execution_status=finished')).json as {
        items: Info[];
      };
      expect(finished.items.map((item) => item.id)).toEqual([id]);

      const info = (await server.call('GET', `/api/conversations/${id}`)).json as Info;
      expect(info).toMatchObject({ id, execution_status: 'finished' });
      expect((info.agent as { llm: { model: string } }).llm.model).toBe('gpt-4o');

      llm.push(finishReply('continued here'));
      const sent = await server.call('POST', `/api/conversations/${id}/events`, {
        content: [{ type: 'text', text: 'one more thing' }],
        run: true,
      });
      expect(sent.status).toBe(200);
      expect((await waitForIdle(server, id)).execution_status).toBe('finished');
      expect((await server.call('GET', `/api/conversations/${id}/agent_final_response`)).json).toEqual({
        response: 'continued here',
      });
    } finally {
      await server.stop();
    }
  });

  it('names base_state.json when a meta.json without an agent has no state to take it from', async () => {
    const llm = await startScriptedLLMServer();
    await llm.close();
    const { dataDir, id, hex } = await referenceServerDataDir(llm.baseURL);
    const store = createLocalFileStore({ root: join(dataDir, 'conversations') });
    await expect(readConversationMeta(store, hex)).resolves.toMatchObject({ id: hex, execution_status: 'finished' });

    await writeFile(join(dataDir, 'conversations', hex, 'base_state.json'), '{"id": "truncated');
    await expect(readConversationMeta(store, hex)).rejects.toThrow(/base_state\.json is not JSON/);
    await writeFile(join(dataDir, 'conversations', hex, 'base_state.json'), JSON.stringify({ id }));
    await expect(readConversationMeta(store, hex)).rejects.toThrow(/base_state\.json has no agent/);
    await removeDir(join(dataDir, 'conversations', hex, 'base_state.json'));
    await expect(readConversationMeta(store, hex)).rejects.toThrow(/no agent .* no base_state\.json/);

    const server = await startTestServer({ dataDir });
    try {
      const listed = (await server.call('GET', '/api/conversations/search')).json as { items: Info[] };
      expect(listed.items).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});

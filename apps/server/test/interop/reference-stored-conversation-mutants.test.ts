// meta.json files the reference agent-server wrote (its StoredConversation, no agent) completed from base_state.json,
// and this server's own meta.json, which is never overridden by the state beside it.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createMemoryFileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { readConversationMeta } from '../../src/conversations/conversation-meta.js';
import { ConversationDamagedError } from '../../src/conversations/errors/conversation-damaged-error.js';

const fixture = fileURLToPath(
  new URL(
    '../../../../packages/events/test/__fixtures__/openhands/01_simple_message_reply/base_state.json',
    import.meta.url,
  ),
);

async function referenceState(): Promise<Record<string, unknown> & { id: string; agent: Record<string, unknown> }> {
  return JSON.parse(await readFile(fixture, 'utf8'));
}

/** The fields of the reference's StoredConversation that matter here (it writes more; they are kept). */
function referenceMeta(hex: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    workspace: { working_dir: '/tmp/project', kind: 'LocalWorkspace' },
    worktree: false,
    max_iterations: 120,
    secrets: { GITHUB_TOKEN: { description: null, value: 'gAAAAAencrypted', kind: 'StaticSecret' } },
    observability_span_name: 'conversation',
    tags: { project: 'migrated' },
    id: hex,
    title: 'Written by the reference server',
    created_at: '2026-11-20T10:00:00.123456Z',
    updated_at: '2026-11-20T10:05:00.654321Z',
    ...extra,
  };
}

async function storeWith(hex: string, meta: unknown, state?: unknown) {
  const store = createMemoryFileStore();
  await store.write(`${hex}/meta.json`, JSON.stringify(meta));
  if (state !== undefined) await store.write(`${hex}/base_state.json`, JSON.stringify(state));
  return store;
}

describe('a meta.json the reference server wrote', () => {
  it('takes the agent and the status from base_state.json and keeps every field the reference wrote', async () => {
    const state = await referenceState();
    const hex = state.id.replace(/-/g, '');
    const meta = await readConversationMeta(await storeWith(hex, referenceMeta(hex), state), hex);
    expect(meta).toMatchObject({
      id: hex,
      title: 'Written by the reference server',
      tags: { project: 'migrated' },
      max_iterations: 120,
      execution_status: 'finished',
      secret_names: ['GITHUB_TOKEN'],
      worktree: false,
      observability_span_name: 'conversation',
    });
    expect(meta?.agent).toEqual(state.agent);
  });

  it('names the secrets set after the start too: those only base_state.json records', async () => {
    const state = await referenceState();
    const hex = state.id.replace(/-/g, '');
    const registry = { secret_sources: { GITHUB_TOKEN: {}, NPM_TOKEN: { kind: 'StaticSecret', value: null } } };
    const store = await storeWith(hex, referenceMeta(hex), { ...state, secret_registry: registry });
    expect((await readConversationMeta(store, hex))?.secret_names).toEqual(['GITHUB_TOKEN', 'NPM_TOKEN']);
    const noSecrets = await storeWith(hex, referenceMeta(hex, { secrets: {} }), { ...state, secret_registry: null });
    expect((await readConversationMeta(noSecrets, hex))?.secret_names).toEqual([]);
  });

  it('is idle when the state records no status, and keeps a status the meta.json has', async () => {
    const state = await referenceState();
    const hex = state.id.replace(/-/g, '');
    const { execution_status: _status, ...stateWithoutStatus } = state;
    const unknown = await storeWith(hex, referenceMeta(hex), stateWithoutStatus);
    expect((await readConversationMeta(unknown, hex))?.execution_status).toBe('idle');
    const own = await storeWith(hex, referenceMeta(hex, { execution_status: 'paused' }), state);
    expect((await readConversationMeta(own, hex))?.execution_status).toBe('paused');
  });

  it('is damaged (409) when base_state.json is missing, not JSON or has no agent object, and says which', async () => {
    const state = await referenceState();
    const hex = state.id.replace(/-/g, '');
    const cases: Array<[unknown, RegExp]> = [
      [undefined, /no agent .* no base_state\.json/],
      [null, /base_state\.json has no agent object/],
      [[state], /base_state\.json has no agent object/],
      [{ ...state, agent: null }, /base_state\.json has no agent object/],
      [{ ...state, agent: [state.agent] }, /base_state\.json has no agent object/],
      [{ ...state, agent: 'Agent' }, /base_state\.json has no agent object/],
    ];
    for (const [damagedState, reason] of cases) {
      const error = await readConversationMeta(await storeWith(hex, referenceMeta(hex), damagedState), hex).catch(
        (caught: unknown) => caught,
      );
      expect(ConversationDamagedError.isInstance(error), String(error)).toBe(true);
      expect({ status: (error as ConversationDamagedError).statusCode, message: String(error) }).toMatchObject({
        status: 409,
        message: expect.stringMatching(reason),
      });
    }
    const store = await storeWith(hex, referenceMeta(hex));
    await store.write(`${hex}/base_state.json`, '{"id": "trunc');
    await expect(readConversationMeta(store, hex)).rejects.toThrow(/base_state\.json is not JSON/);
  });
});

describe("this server's own meta.json", () => {
  it('keeps its agent whatever base_state.json holds, and needs no base_state.json', async () => {
    const state = await referenceState();
    const hex = state.id.replace(/-/g, '');
    const own = referenceMeta(hex, {
      agent: { llm: { model: 'own-model', api_key: null } },
      execution_status: 'idle',
      secret_names: ['OWN'],
    });
    const beside = await readConversationMeta(await storeWith(hex, own, state), hex);
    expect(beside).toMatchObject({ agent: { llm: { model: 'own-model' } }, execution_status: 'idle' });
    expect(beside?.secret_names).toEqual(['OWN']);
    const alone = await readConversationMeta(await storeWith(hex, own), hex);
    expect(alone).toMatchObject({ agent: { llm: { model: 'own-model' } }, execution_status: 'idle' });
  });

  it('that is not an object is refused by validation, not completed', async () => {
    const state = await referenceState();
    const hex = state.id.replace(/-/g, '');
    for (const meta of [null, [referenceMeta(hex)], 'meta']) {
      const error = await readConversationMeta(await storeWith(hex, meta, state), hex).catch((caught) => caught);
      expect({ meta, name: (error as Error).name }).toEqual({ meta, name: 'ZodError' });
    }
  });
});

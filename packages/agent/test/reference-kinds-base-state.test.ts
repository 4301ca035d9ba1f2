import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../src/index.js';
import { createSecretCipher } from '../src/secrets/index.js';
import { type Harness, startHarness } from './support/harness.js';

/**
 * base_state.json the reference wrote, with the ConversationState fields x does not manage set (tags, activated
 * skills and path rules, its own agent_state keys, a hook config, a non-LLM security analyzer, a remote workspace's
 * settings, a LookupSecret, per-response stats lists, a field of a newer version): x opens it, runs a step, and
 * writes those back unchanged next to its own fields.
 */
const fixture = fileURLToPath(
  new URL('../../events/test/__fixtures__/openhands/01_simple_message_reply/', import.meta.url),
);
const id = 'e88b7591-31db-4e32-98dc-b35f94c662cd';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function referenceDirectory(h: Harness, edit: (state: Record<string, unknown>) => void): Promise<string> {
  const dir = join(h.persistenceDir, id.replaceAll('-', ''));
  await cp(fixture, dir, { recursive: true });
  const path = join(dir, 'base_state.json');
  const state = JSON.parse(await readFile(path, 'utf8'));
  edit(state);
  await writeFile(path, JSON.stringify(state));
  return path;
}

describe('base_state.json fields x does not manage', () => {
  it('are written back unchanged after x resumes and runs the conversation', async () => {
    harness = await startHarness([{ content: 'Tails!' }]);
    const h = harness;
    const cipher = createSecretCipher('storage key');
    const lookup = {
      description: 'vault',
      url: 'http://127.0.0.1:8000/api/secrets/token',
      headers: { 'X-Session-API-Key': cipher.encrypt('k') },
      kind: 'LookupSecret',
    };
    const analyzer = { high_patterns: [['rm -rf', 'rm', 'deletes']], kind: 'PatternSecurityAnalyzer' };
    const workspace = { working_dir: h.workspace, host: 'http://127.0.0.1:8010', kind: 'DockerWorkspace' };
    const hookConfig = {
      pre_tool_use: [{ matcher: 'terminal', hooks: [{ type: 'command', command: 'check.sh', timeout: 60 }] }],
    };
    let recordedStats: Record<string, Record<string, unknown>> = {};
    const path = await referenceDirectory(h, (state) => {
      Object.assign(state, {
        workspace,
        security_analyzer: analyzer,
        activated_knowledge_skills: ['git'],
        activated_path_rules: ['python-style'],
        invoked_skills: ['deploy'],
        tags: { team: 'core' },
        agent_state: { goal: { text: 'flip', turns: 2 } },
        hook_config: hookConfig,
        secret_registry: { secret_sources: { VAULT: lookup } },
        future_field: { added: 'in a newer reference' },
      });
      recordedStats = (state.stats as { usage_to_metrics: Record<string, Record<string, unknown>> }).usage_to_metrics;
    });
    const conversation = await Conversation.resume(id, {
      agent: h.agent(),
      workspace: h.workspace,
      persistenceDir: h.persistenceDir,
      secretKey: 'storage key',
    });
    await conversation.sendMessage('Again');
    await conversation.run();

    const written = JSON.parse(await readFile(path, 'utf8'));
    expect(written.workspace).toEqual(workspace);
    expect(written.security_analyzer).toEqual(analyzer);
    expect(written.activated_knowledge_skills).toEqual(['git']);
    expect(written.activated_path_rules).toEqual(['python-style']);
    expect(written.invoked_skills).toEqual(['deploy']);
    expect(written.tags).toEqual({ team: 'core' });
    expect(written.agent_state.goal).toEqual({ text: 'flip', turns: 2 });
    expect(written.agent_state.x_state).toBeDefined();
    expect(written.hook_config).toEqual(hookConfig);
    expect(written.secret_registry).toEqual({ secret_sources: { VAULT: lookup } });
    expect(written.future_field).toEqual({ added: 'in a newer reference' });
    // x's own fields moved on; the reference's per-response lists are kept beside x's totals.
    expect(written.persistence_dir).toBe(join(h.persistenceDir, id.replaceAll('-', '')));
    expect(written.execution_status).toBe('finished');
    expect(written.leaf_event_id).not.toBe('aa2fc00e-541a-445d-ae1e-1d039ffa5c44');
    const agentMetrics = written.stats.usage_to_metrics.agent;
    expect(agentMetrics.costs).toEqual(recordedStats.agent?.costs);
    expect(agentMetrics.token_usages).toEqual(recordedStats.agent?.token_usages);
    expect(agentMetrics.response_latencies).toEqual(recordedStats.agent?.response_latencies);
  });

  it("are not invented for a conversation x created, and a reference analyzer is dropped when x's is off", async () => {
    harness = await startHarness([{ content: 'ok' }]);
    const h = harness;
    const path = await referenceDirectory(h, (state) => {
      state.security_analyzer = { kind: 'LLMSecurityAnalyzer' };
    });
    const conversation = await Conversation.resume(id, {
      agent: h.agent(),
      workspace: h.workspace,
      persistenceDir: h.persistenceDir,
      securityAnalyzer: 'none',
    });
    await conversation.sendMessage('Again');
    await conversation.run();
    const written = JSON.parse(await readFile(path, 'utf8'));
    expect(written.security_analyzer).toBeUndefined();
    // The fixture's workspace is another directory: x writes its own.
    expect(written.workspace).toEqual({ working_dir: h.workspace, kind: 'LocalWorkspace' });
    expect(written.tags).toEqual({});
    expect(written.hook_config).toBeUndefined();
  });
});

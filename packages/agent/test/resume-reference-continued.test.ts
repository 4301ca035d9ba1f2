import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { type Agent, Conversation } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

/**
 * x wrote base_state.json with its checkpoint (`agent_state.x_state`); then the reference continued the conversation.
 * The reference rewrites the file from its own ConversationState (its status, stats, policy, the iteration limit it
 * was resumed with, the hook blocks it consumed, its security analyzer) and keeps `agent_state` as it found it, so
 * x's checkpoint in it is stale. A later x resume must take what the reference changed, and keep its checkpoint for
 * the rest.
 */
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type Json = Record<string, unknown>;

async function xConversation(h: Harness, agent?: Agent): Promise<{ id: string; file: string }> {
  const { conversation } = await h.conversation(agent === undefined ? {} : { agent });
  await conversation.sendMessage('Hi');
  await conversation.run();
  await conversation.close();
  const dir = join(h.persistenceDir, conversation.id.replaceAll('-', ''));
  return { id: conversation.id, file: join(dir, 'base_state.json') };
}

/** The reference's rewrite of the file: `change` applied to the JSON x wrote, `agent_state` untouched. */
async function referenceRewrites(file: string, change: (json: Json) => void): Promise<Json> {
  const json = JSON.parse(await readFile(file, 'utf8')) as Json;
  change(json);
  await writeFile(file, JSON.stringify(json));
  return json;
}

const referenceStats = {
  usage_to_metrics: {
    agent: {
      model_name: 'scripted',
      accumulated_cost: 0.25,
      max_budget_per_task: null,
      accumulated_token_usage: {
        model: 'scripted',
        prompt_tokens: 900,
        completion_tokens: 80,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        reasoning_tokens: 0,
        context_window: 0,
        per_turn_token: 980,
        response_id: '',
      },
      costs: [{ model: 'scripted', cost: 0.25, timestamp: 1.7e9 }],
      response_latencies: [],
      token_usages: [],
    },
  },
};

describe('resuming after the reference continued a conversation x wrote', () => {
  it('takes every field the reference changed after the checkpoint, and keeps the checkpoint for the others', async () => {
    harness = await startHarness([{ content: 'Hello.' }]);
    const h = harness;
    const { id, file } = await xConversation(h);
    const checkpoint = (JSON.parse(await readFile(file, 'utf8')) as { agent_state: { x_state: Json } }).agent_state
      .x_state;
    await referenceRewrites(file, (json) => {
      json.execution_status = 'paused';
      json.confirmation_policy = { kind: 'AlwaysConfirm' };
      json.max_iterations = 42;
      json.stuck_detection = false;
      json.stats = referenceStats;
      json.blocked_messages = { 'message-1': 'blocked by a hook' };
    });
    const conversation = await Conversation.resume(id, { agent: h.agent(), persistenceDir: h.persistenceDir });
    const { state } = conversation;
    expect(state.execution_status).toBe('paused');
    expect(state.confirmation_policy).toEqual({ kind: 'AlwaysConfirm' });
    expect(state.max_iterations).toBe(42);
    expect(state.stuck_detection).toBe(false);
    expect(state.stats.usage_to_metrics.agent?.accumulated_cost).toBe(0.25);
    expect(state.stats.usage_to_metrics.agent?.accumulated_token_usage.prompt_tokens).toBe(900);
    expect(state.blocked_messages).toEqual({ 'message-1': 'blocked by a hook' });
    // What the reference left alone is the checkpoint's.
    expect(state.iteration).toBe(checkpoint.iteration);
    expect(state.blocked_actions).toEqual(checkpoint.blocked_actions);
    expect(state.leaf_event_id).toBe(checkpoint.leaf_event_id);
    await conversation.close();
  });

  it("follows the reference's security analyzer switched off, and writes its checkpoint before it appends", async () => {
    harness = await startHarness([{ content: 'Hello.' }]);
    const h = harness;
    const { id, file } = await xConversation(h);
    await referenceRewrites(file, (json) => {
      delete json.security_analyzer;
      json.confirmation_policy = { kind: 'AlwaysConfirm' };
    });
    // The file as the first event appended finds it: a process killed right after that append must resume on it.
    let atFirstAppend: (Json & { agent_state: Json & { x_state: Json } }) | undefined;
    const conversation = await Conversation.resume(id, {
      agent: h.agent(),
      persistenceDir: h.persistenceDir,
      onEvent: () => {
        atFirstAppend ??= JSON.parse(readFileSync(file, 'utf8'));
      },
    });
    // No analyzer: confirmation mode is off whatever the policy (reference `confirmation_mode`).
    expect(conversation.isConfirmationModeActive).toBe(false);
    const events = join(file, '..', 'events');
    const before = (await readdir(events)).length;
    await conversation.sendMessage('Again');
    expect((await readdir(events)).length).toBeGreaterThan(before);
    expect(atFirstAppend?.agent_state.x_security_analyzer).toBe('none');
    expect(atFirstAppend?.security_analyzer).toBeUndefined();
    expect(atFirstAppend?.agent_state.x_state.confirmation_policy).toEqual({ kind: 'AlwaysConfirm' });
    await conversation.close();
  });

  it('activates no skill the reference recorded as activated, and records the ones it activates', async () => {
    harness = await startHarness([{ content: 'Hello.' }, { content: 'Deploying.' }]);
    const h = harness;
    await mkdir(join(h.workspace, '.openhands/skills'), { recursive: true });
    await writeFile(
      join(h.workspace, '.openhands/skills/deploy.md'),
      '---\ntriggers: [deploy]\n---\nUse the blue pipeline.',
    );
    await writeFile(join(h.workspace, '.openhands/skills/review.md'), '---\ntriggers: [review]\n---\nRead it twice.');
    const agent = () => h.agent({ agentContext: { loadProjectSkills: true } });
    const { id, file } = await xConversation(h, agent());
    await referenceRewrites(file, (json) => {
      json.activated_knowledge_skills = ['deploy'];
    });
    const conversation = await Conversation.resume(id, {
      agent: agent(),
      persistenceDir: h.persistenceDir,
      workspace: h.workspace,
    });
    await conversation.sendMessage('Please deploy, then review');
    const messages: AnyEvent[] = [];
    for await (const event of conversation.events()) if (event.kind === 'MessageEvent') messages.push(event);
    const last = messages.at(-1);
    expect(last?.kind === 'MessageEvent' && last.activated_skills).toEqual(['review']);
    await conversation.close();
    const written = JSON.parse(await readFile(file, 'utf8')) as Json;
    expect(written.activated_knowledge_skills).toEqual(['deploy', 'review']);
  });

  it('folds the events after an older checkpoint of its own on it (a file x wrote is no change)', async () => {
    harness = await startHarness([{ content: 'Hello.' }, { content: 'Again.' }]);
    const h = harness;
    const { id, file } = await xConversation(h);
    const older = await readFile(file, 'utf8');
    const second = await Conversation.resume(id, { agent: h.agent(), persistenceDir: h.persistenceDir });
    await second.sendMessage('More');
    await second.run();
    const { state: latest } = second;
    await second.close();
    // Killed before its last checkpoint: the file is the one x wrote a run earlier.
    await writeFile(file, older);
    const resumed = await Conversation.resume(id, { agent: h.agent(), persistenceDir: h.persistenceDir });
    expect(resumed.state.event_count).toBe(latest.event_count);
    expect(resumed.state.iteration).toBe(latest.iteration);
    expect(resumed.state.stats).toEqual(latest.stats);
    expect(resumed.state.execution_status).toBe('finished');
    expect(resumed.isConfirmationModeActive).toBe(false);
    await resumed.close();
  });
});

import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

/**
 * A conversation the reference's own loop left waiting for confirmation (tooling/reference-oracle/genloop.py with
 * GENLOOP_PENDING=1, seed 636): AlwaysConfirm, a PreToolUse hook that blocked the third of three pending calls
 * (`blocked_actions` in base_state.json), and a recorded per-run limit of 1. The reference, resuming it and running
 * after a new message (refresume.py), runs the two pending `think` calls, rejects the blocked `task_tracker` call
 * with the hook's reason (`rejection_source: "hook"`), forgets the block, then asks its model; continued.py found x
 * doing the same.
 */
const FIXTURE = fileURLToPath(new URL('./__fixtures__/reference-pending-blocked/', import.meta.url));
const HEX = '6fbcd9419a5c40a4a6e766529ca92fbf';
const ID = '6fbcd941-9a5c-40a4-a6e7-66529ca92fbf';
const THINK_1 = '8159cfa3-df15-4cd5-a5e5-8de1a5377d5f';
const THINK_2 = '49f6b106-7e55-46c4-94bd-e0364b258c15';
const BLOCKED = 'c24378ce-e8c4-4067-be88-68b044c1d00b';
const REASON = 'blocked: {"command": "plan", "task_list": [{"titl';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function resumed(h: Harness, options: { maxIterationsPerRun?: number } = {}): Promise<Conversation> {
  await cp(join(FIXTURE, HEX), join(h.persistenceDir, HEX), { recursive: true });
  return Conversation.resume(ID, {
    agent: h.agent(),
    persistenceDir: h.persistenceDir,
    workspace: h.workspace,
    ...options,
  });
}

/** What the continuation appended, without x's own state updates, as `kind action_id rejection`. */
async function appended(conversation: Conversation, from: number): Promise<string[]> {
  const out: string[] = [];
  for await (const event of conversation.events(from)) {
    const e = event as AnyEvent & { action_id?: string; rejection_source?: string; rejection_reason?: string };
    if (e.kind === 'ConversationStateUpdateEvent') continue;
    out.push([e.kind, e.source, e.action_id, e.rejection_source, e.rejection_reason].filter(Boolean).join(' '));
  }
  return out;
}

describe('a conversation the reference left waiting for confirmation with a hook-blocked call', () => {
  it('runs the pending calls, rejects the blocked one with the hook reason and forgets the block, as the reference', async () => {
    harness = await startHarness([{ content: 'Done.' }]);
    const conversation = await resumed(harness, { maxIterationsPerRun: 500 });
    expect(conversation.state.execution_status).toBe('waiting_for_confirmation');
    expect(conversation.state.blocked_actions).toEqual({ [BLOCKED]: REASON });
    const from = conversation.state.event_count;
    await conversation.sendMessage('continue');
    expect((await conversation.run()).status).toBe('finished');
    expect(await appended(conversation, from)).toEqual([
      'MessageEvent user',
      `ObservationEvent environment ${THINK_1}`,
      `ObservationEvent environment ${THINK_2}`,
      `UserRejectObservation environment ${BLOCKED} hook ${REASON}`,
      'MessageEvent agent',
    ]);
    expect(conversation.state.blocked_actions).toEqual({});
    await conversation.close();
  });

  it('keeps the recorded per-run limit when resumed without one (the reference would use its own, 500)', async () => {
    harness = await startHarness([{ content: 'Done.' }]);
    const conversation = await resumed(harness);
    expect(conversation.state.max_iterations).toBe(1);
    const from = conversation.state.event_count;
    await conversation.sendMessage('continue');
    const result = await conversation.run();
    const kinds = await appended(conversation, from);
    expect(kinds.slice(0, 4)).toEqual([
      'MessageEvent user',
      `ObservationEvent environment ${THINK_1}`,
      `ObservationEvent environment ${THINK_2}`,
      `UserRejectObservation environment ${BLOCKED} hook ${REASON}`,
    ]);
    expect(kinds.at(-1)).toBe('ConversationErrorEvent environment');
    expect(result.status).toBe('error');
    await conversation.close();
  });
});

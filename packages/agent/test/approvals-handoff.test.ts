import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedReply } from '../src/testing/index.js';
import { effectTool } from './support/approval-tools.js';
import { type Harness, startHarness } from './support/harness.js';

// Decisions on the actions of the agent in control after a handoff: an edit is checked against that agent's tools
// (and the transfer tool the roster gives it), not against the tools of the agent the conversation was made with.
let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

const transfer = (agent_name: string): ScriptedReply => ({
  toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name } }],
});
const effect = (label: string): ScriptedReply => ({ toolCalls: [{ name: 'record_effect', arguments: { label } }] });
const done: ScriptedReply = { content: 'Done.' };

async function effects(): Promise<string[]> {
  try {
    return (await readFile(join(harness.workspace, 'effects.log'), 'utf8')).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

async function handedOff(script: ScriptedReply[]) {
  harness = await startHarness(script);
  // The main agent lacks the tool the agent it hands off to has.
  const triage = harness.agent({ name: 'triage', description: 'Sorts requests.' });
  const worker = harness.agent({ name: 'worker', description: 'Does the work.', tools: [effectTool] });
  const made = await harness.conversation({
    agent: triage,
    agents: { triage, worker },
    confirmationPolicy: { kind: 'AlwaysConfirm' },
  });
  const { conversation } = made;
  await conversation.sendMessage('go');
  expect((await conversation.run()).status).toBe('waiting_for_confirmation');
  const [handoff] = await conversation.pendingActions();
  expect(handoff?.tool_name).toBe('transfer_to_agent');
  return made;
}

describe('approvals under handoff', () => {
  it('checks an edited call of the agent in control against its tools, and runs it', async () => {
    const { conversation, events } = await handedOff([transfer('worker'), effect('original'), done]);
    await conversation.decide(
      [{ action_id: (await conversation.pendingActions())[0]!.id, decision: { kind: 'approve' } }],
      {
        principal: 'alice',
      },
    );
    expect((await conversation.run()).status).toBe('waiting_for_confirmation');
    expect(conversation.agent.name).toBe('worker');
    const [action] = await conversation.pendingActions();
    expect(action?.tool_name).toBe('record_effect');
    const [record] = await conversation.decide(
      [{ action_id: action!.id, decision: { kind: 'approve', arguments: { label: 'edited' } } }],
      { principal: 'alice' },
    );
    expect(record?.replacement_action_id).toBeDefined();
    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual(['edited']);
    const replacement = events.find((event: AnyEvent) => event.id === record!.replacement_action_id);
    expect(replacement).toMatchObject({ kind: 'ActionEvent', action: { label: 'edited' } });
  });

  it('checks an edited transfer call against the transfer tool the roster gives the agent', async () => {
    const { conversation } = await handedOff([transfer('worker'), done]);
    const [handoff] = await conversation.pendingActions();
    await conversation.decide(
      [
        {
          action_id: handoff!.id,
          decision: { kind: 'approve', arguments: { agent_name: 'worker', reason: 'edited' } },
        },
      ],
      { principal: 'alice' },
    );
    expect((await conversation.run()).status).toBe('finished');
    expect(conversation.state.active_agent).toEqual({ name: 'worker', reason: 'edited' });
  });
});

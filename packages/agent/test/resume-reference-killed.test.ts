import { readFileSync } from 'node:fs';
import { appendFile, cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Conversation, defineTool } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

/**
 * A conversation the reference wrote, continued by x and killed before x checkpointed it: base_state.json is then
 * the file as it was when the last event was appended (each test keeps that copy and puts it back after closing,
 * which is what the kill leaves). The reference's file names a HEAD and a status that win over the events; were
 * it still the reference's own, what x appended would fall off the conversation's branch, its message unanswered
 * and its steps run again.
 */
const FIXTURE = fileURLToPath(
  new URL('../../events/test/__fixtures__/openhands/01_simple_message_reply/', import.meta.url),
);
const ID = 'e88b7591-31db-4e32-98dc-b35f94c662cd';
const REFERENCE_LEAF = 'aa2fc00e-541a-445d-ae1e-1d039ffa5c44';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The fixture in the harness's persistence dir; `edit` changes its base_state.json first. */
async function referenceDirectory(h: Harness, edit: (state: Record<string, unknown>) => void = () => {}) {
  const dir = join(h.persistenceDir, ID.replaceAll('-', ''));
  await cp(FIXTURE, dir, { recursive: true });
  const state = JSON.parse(await readFile(join(dir, 'base_state.json'), 'utf8'));
  edit(state);
  await writeFile(join(dir, 'base_state.json'), JSON.stringify(state));
  return dir;
}

/** Opens the conversation keeping base_state.json as it was at each append: `killed()` closes it and puts that back. */
async function openKeepingBaseState(h: Harness, dir: string, agent = h.agent()) {
  let atLastAppend = '';
  const conversation = await Conversation.resume(ID, {
    agent,
    persistenceDir: h.persistenceDir,
    workspace: h.workspace,
    onEvent: (_event, index) => {
      if (index !== undefined) atLastAppend = readFileSync(join(dir, 'base_state.json'), 'utf8');
    },
  });
  const killed = async () => {
    await conversation.close();
    await writeFile(join(dir, 'base_state.json'), atLastAppend);
  };
  return { conversation, killed };
}

async function allEvents(conversation: Conversation): Promise<AnyEvent[]> {
  const events: AnyEvent[] = [];
  for await (const event of conversation.events()) events.push(event);
  return events;
}

describe('a reference conversation killed after x appended to it, before x checkpointed it', () => {
  it('resumes on the message x added, and answers it', async () => {
    harness = await startHarness([{ content: 'Answered.' }]);
    const h = harness;
    const dir = await referenceDirectory(h);
    const first = await openKeepingBaseState(h, dir);
    await first.conversation.sendMessage('And Italy?');
    await first.killed();

    const resumed = await Conversation.resume(ID, { agent: h.agent(), persistenceDir: h.persistenceDir });
    const message = (await allEvents(resumed)).at(-1);
    expect(message?.kind).toBe('MessageEvent');
    expect(message?.parent_id).toBe(REFERENCE_LEAF);
    expect(resumed.leafEventId).toBe(message?.id);
    expect(resumed.state.last_user_message_id).toBe(message?.id);
    expect(resumed.state.execution_status).toBe('idle');
    expect((await resumed.run()).status).toBe('finished');
    expect(harness.server.requests).toHaveLength(1);
    const sent = (harness.server.requests[0]?.messages ?? []) as unknown[];
    expect(JSON.stringify(sent.at(-1))).toContain('And Italy?');
    await resumed.close();
  });

  it('resumes after the steps x ran, and never runs them again', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'record_effect', arguments: { label: 'once' } }] },
      { content: 'Recorded.' },
    ]);
    const h = harness;
    const effects = join(h.workspace, 'effects.log');
    const recordEffect = defineTool({
      name: 'record_effect',
      description: 'Appends a line to effects.log.',
      parameters: z.object({ label: z.string() }),
      execute: async ({ label }) => {
        await appendFile(effects, `${label}\n`);
        return { content: 'recorded' };
      },
    });
    const agent = () => h.agent({ tools: [recordEffect] });
    // The reference stopped before answering its last message (paused, or killed itself): x's run is its next write.
    const dir = await referenceDirectory(h, (state) => {
      state.execution_status = 'paused';
      state.leaf_event_id = '38c115d6-9a1f-4aa5-b6ea-fa2880e6b5d0';
    });
    const first = await openKeepingBaseState(h, dir, agent());
    expect((await first.conversation.run()).status).toBe('finished');
    const leaf = first.conversation.leafEventId;
    await first.killed();
    expect(await readFile(effects, 'utf8')).toBe('once\n');

    const resumed = await Conversation.resume(ID, { agent: agent(), persistenceDir: h.persistenceDir });
    expect(resumed.leafEventId).toBe(leaf);
    expect(resumed.state.execution_status).toBe('finished');
    expect((await resumed.run()).status).toBe('finished');
    expect(harness.server.requests).toHaveLength(2);
    expect(await readFile(effects, 'utf8')).toBe('once\n');
    await resumed.close();
  });
});

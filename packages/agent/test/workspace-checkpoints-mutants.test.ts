// The bookkeeping of workspace checkpoints around navigation, resume and fork: a restore says what it changed and
// becomes the checkpoint in effect (a capture of the same files records nothing new), an empty HEAD has none, and a
// resume or fork with nothing to restore neither warns nor fails.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKPOINT_KEY, Conversation } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

const terminal = (command: string) => ({ toolCalls: [{ name: 'terminal', arguments: { command } }] });
const finish = (message: string) => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });
const records = (events: readonly AnyEvent[]) =>
  events.filter((event) => event.kind === 'ConversationStateUpdateEvent' && event.key === CHECKPOINT_KEY);

async function twoSteps() {
  harness = await startHarness();
  harness.server.push(terminal('echo one > a.txt'), terminal('echo two > a.txt'), finish('Done.'));
  const { conversation, events } = await harness.conversation({ workspaceCheckpoints: true });
  await conversation.sendMessage('Write a file twice');
  expect((await conversation.run()).status).toBe('finished');
  const first = events.find((event) => event.kind === 'ObservationEvent')!;
  return { conversation, events, first };
}

describe('workspace checkpoints', () => {
  it('restores as the checkpoint in effect, saying what changed; an empty HEAD has none', async () => {
    const { conversation, events, first } = await twoSteps();
    expect(await conversation.checkpoints.at(null)).toBeUndefined();
    const atFirst = (await conversation.checkpoints.at(first.id))!;
    await conversation.navigateTo(first.id);
    const recorded = records(events).length;
    expect(await conversation.checkpoints.capture()).toBe(atFirst.checkpoint_id);
    expect(records(events)).toHaveLength(recorded);
    await writeFile(join(harness.workspace, 'a.txt'), 'mine\n');
    await writeFile(join(harness.workspace, 'b.txt'), 'mine too\n');
    expect(await conversation.checkpoints.restore(atFirst.checkpoint_id)).toEqual({
      written: ['a.txt'],
      removed: ['b.txt'],
    });
    // A capture that records a new checkpoint answers its id, the one the log now holds.
    await writeFile(join(harness.workspace, 'c.txt'), 'new\n');
    const captured = await conversation.checkpoints.capture();
    expect(captured).toMatch(/^[0-9a-f]{64}$/);
    expect(records(events).at(-1)).toMatchObject({ value: { checkpoint_id: captured } });
    await conversation.close();
  });

  it('resumes without a warning over the files of its checkpoint, or with no checkpoint at all', async () => {
    const { conversation } = await twoSteps();
    await conversation.close();
    const options = {
      agent: harness.agent(),
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
      workspaceCheckpoints: true,
    };
    const resumed = await Conversation.resume(conversation.id, options);
    expect(resumed.checkpoints.warnings).toEqual([]);
    await resumed.close();

    harness.server.push(terminal('echo plain > p.txt'), finish('Done.'));
    const { conversation: plain } = await harness.conversation();
    await plain.sendMessage('Write without checkpoints');
    await plain.run();
    await plain.close();
    const later = await Conversation.resume(plain.id, options);
    expect(later.checkpoints.warnings).toEqual([]);
    await later.close();
  });

  it('forks the whole conversation with each checkpoint record once, not again beside the copied one', async () => {
    const { conversation, events } = await twoSteps();
    const pairs = (from: readonly AnyEvent[]) =>
      records(from).map((event) => JSON.stringify((event as { value: unknown }).value));
    const recorded = pairs(events);
    expect(recorded.length).toBeGreaterThan(0);
    const fork = await conversation.fork({ workspace: join(harness.persistenceDir, 'fork-ws') });
    const copied: AnyEvent[] = [];
    for await (const event of fork.events()) copied.push(event);
    expect(pairs(copied)).toEqual(recorded);
    expect(fork.checkpoints.warnings).toEqual([]);
    await fork.close();
    await conversation.close();
  });

  it('forks a conversation that has no checkpoint yet', async () => {
    harness = await startHarness();
    const { conversation, events } = await harness.conversation({ workspaceCheckpoints: true });
    await conversation.sendMessage('Nothing ran yet');
    expect(records(events)).toEqual([]);
    const fork = await conversation.fork({ workspace: join(harness.persistenceDir, 'fork-ws') });
    expect(fork.checkpoints.warnings).toEqual([]);
    await fork.close();
    await conversation.close();
  });
});

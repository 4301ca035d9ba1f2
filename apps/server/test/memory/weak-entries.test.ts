// A released conversation is held weakly by the manager: its object (meta and bookkeeping) goes once nothing refers
// to it, and never are there two objects for one conversation, nor an open one collected.
import { describe, expect, it } from 'vitest';
import type { ConversationManager } from '../../src/conversations/conversation-manager.js';
import type { ManagedConversation } from '../../src/conversations/managed-conversation.js';
import { type InProcessManager, managersStoppedAfterEach, offlineRequest } from '../support/in-process-manager.js';
import { collectGarbage } from './heap-objects.js';

const start = managersStoppedAfterEach();
const IDS = [
  '0123456789abcdef0123456789abcde0',
  '0123456789abcdef0123456789abcde1',
  '0123456789abcdef0123456789abcde2',
];

/** Creates the conversations (open), then lets the clock pass and releases them all. */
async function createdAndReleased(): Promise<InProcessManager & { objects: WeakRef<ManagedConversation>[] }> {
  const started = await start();
  const objects: WeakRef<ManagedConversation>[] = [];
  for (const id of IDS) {
    const { conversation } = await started.manager.create(
      offlineRequest({ conversation_id: id, title: `title ${id}` }),
    );
    objects.push(new WeakRef(conversation));
  }
  started.advance(60_000);
  expect(await started.manager.releaseIdle()).toBe(IDS.length);
  return { ...started, objects };
}

/** Opens the conversation through an object the caller does not keep. */
async function openWithoutKeeping(manager: ConversationManager, id: string): Promise<void> {
  await (await manager.require(id)).open();
}

describe('weakly held released conversations', () => {
  it('lets a released conversation nothing refers to go, and reads its meta again on next use', async () => {
    const { manager, objects } = await createdAndReleased();
    await collectGarbage();
    expect(objects.map((object) => object.deref())).toEqual(IDS.map(() => undefined));

    const again = await manager.require(IDS[1] as string);
    expect(again.meta.title).toBe(`title ${IDS[1]}`);
    expect(again.isOpen).toBe(false);
    expect((await again.open()).state.execution_status).toBe('idle');
  });

  it('keeps the same object across release and collection while a holder refers to it', async () => {
    const { manager } = await createdAndReleased();
    const held = await manager.require(IDS[0] as string);
    await collectGarbage();
    expect(await manager.get(IDS[0] as string)).toBe(held);
    // Its meta changed through the held object is what every later use sees.
    held.meta = { ...held.meta, title: 'renamed' };
    await held.saveMeta();
    expect((await manager.require(IDS[0] as string)).meta.title).toBe('renamed');
  });

  it('holds a conversation strongly again once it opens: an open conversation is never collected', async () => {
    const { manager } = await createdAndReleased();
    await openWithoutKeeping(manager, IDS[2] as string);
    await collectGarbage();
    const found = await manager.require(IDS[2] as string);
    expect(found.isOpen).toBe(true);
  });

  it('remembers a conversation found damaged even when nothing else refers to it', async () => {
    const { manager, store } = await createdAndReleased();
    await store.write(`${IDS[0]}/base_state.json`, '{ truncated');
    // The error is not kept: its stack's call sites refer to the conversation object.
    const failed = await openWithoutKeeping(manager, IDS[0] as string).then(
      () => 'opened',
      (error: unknown) => (error as { code?: string }).code,
    );
    expect(failed).toBe('conversation_damaged');
    await collectGarbage();
    expect(manager.isKnownDamaged(IDS[0] as string)).toBe(true);
  });
});

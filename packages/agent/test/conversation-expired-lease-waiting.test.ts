import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { createFileStoreLeases, createMemoryFileStore } from '@x/store';
import { advanceUntilSettled, createManualClock } from '@x/store/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Conversation, createOfflineLLM, defineTool } from '../src/index.js';
import { nextGenerationFile } from './support/lease-generations.js';

// An owner that died (its lease expired) while the conversation was waiting for confirmation had no action in
// flight: the held action is the user's to approve or reject. The next owner must not answer it as interrupted
// (`interruptedActions: 'report'`); a rejection then is recorded as the user's. The leases run on a manual clock:
// the dead owner's lease expires when the test advances it, not when a real ttl happens to pass.

const TTL = 300;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-expired-waiting-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

describe('an expired lease over a conversation waiting for confirmation', () => {
  it('leaves the held action to the user', async () => {
    const store = createMemoryFileStore();
    const ran: string[] = [];
    const tool = defineTool({
      name: 'record',
      description: 'Records that it ran.',
      parameters: z.object({}),
      execute: () => {
        ran.push('ran');
        return { content: 'ran' };
      },
    });
    const events: AnyEvent[] = [];
    const clock = createManualClock();
    const conversation = await Conversation.create({
      agent: new Agent({
        tools: [tool],
        llm: createOfflineLLM({ script: [{ toolCalls: [{ name: 'record', arguments: {} }] }] }),
      }),
      workspace: dir,
      persistenceDir: dir,
      durability: 'none',
      store,
      leases: createFileStoreLeases(store, { owner: 'a', ttlMs: TTL, clock }),
      confirmationPolicy: { kind: 'AlwaysConfirm' },
      interruptedActions: 'report',
      onEvent: (event) => events.push(event),
    });
    await conversation.sendMessage('go');
    expect((await conversation.run()).status).toBe('waiting_for_confirmation');
    // Another owner took the lease after this run released it, then died without releasing it.
    const dead = await nextGenerationFile(store, conversation.directory);
    expect(await store.writeIfAbsent(dead, '{"owner":"dead"}')).toBe(true);
    const taken = await nextGenerationFile(store, conversation.directory);
    // The rejection waits for the dead owner's heartbeat to stand still for a ttl before it takes the lease.
    await advanceUntilSettled(clock, conversation.rejectPendingActions('not now'), TTL / 4);
    expect(await store.exists(taken)).toBe(true);
    await conversation.close();
    expect(ran).toEqual([]);
    // The lease taken for the rejection was the dead owner's, expired.
    expect(events.filter((event) => event.kind === 'AgentErrorEvent')).toEqual([]);
    expect(events.filter((event) => event.kind === 'UserRejectObservation')).toMatchObject([
      { rejection_reason: 'not now' },
    ]);
  });
});

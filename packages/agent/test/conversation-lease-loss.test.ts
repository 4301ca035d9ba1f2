import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileStoreLeases, createMemoryFileStore, LeaseLostError } from '@x/store';
import { advanceUntilSettled, createManualClock } from '@x/store/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Conversation, createOfflineLLM, defineTool } from '../src/index.js';
import { nextGenerationFile } from './support/lease-generations.js';

// A run whose lease another owner took over stops at the holder's next heartbeat: the tool in flight is aborted
// and the model is not called again, instead of the run going on until its next append meets the fence. The lease
// runs on a manual clock: its heartbeat comes when the test advances it, and its deadline never passes on its own
// however slowly the machine runs the tool.

const TTL = 150;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-lease-loss-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

describe('a run whose lease was taken over', () => {
  it('aborts the tool in flight at the next heartbeat and calls the model no more', async () => {
    const store = createMemoryFileStore();
    let started: () => void = () => undefined;
    const toolStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const toolSaw: string[] = [];
    // Works until its abort signal says why it must stop.
    const waitForAbort = defineTool({
      name: 'wait',
      description: 'Works until it is told to stop.',
      parameters: z.object({}),
      execute: async (_args, context) => {
        started();
        const outcome = await new Promise<string>((resolve) => {
          context.signal?.addEventListener(
            'abort',
            () => resolve(LeaseLostError.isInstance(context.signal?.reason) ? 'lease lost' : 'aborted'),
            { once: true },
          );
        });
        toolSaw.push(outcome);
        return { content: outcome };
      },
    });
    const clock = createManualClock();
    let modelCalls = 0;
    const conversation = await Conversation.create({
      agent: new Agent({
        llm: createOfflineLLM({
          script: () => {
            modelCalls += 1;
            return { toolCalls: [{ name: 'wait', arguments: {} }] };
          },
        }),
        tools: [waitForAbort],
      }),
      workspace: dir,
      persistenceDir: dir,
      durability: 'none',
      store,
      leases: createFileStoreLeases(store, { owner: 'a', ttlMs: TTL, clock }),
    });
    await conversation.sendMessage('go');
    const run = conversation.run().catch((caught: unknown) => caught);
    await toolStarted;
    // Another owner takes the next generation (as after a heartbeat it saw standing still).
    expect(await store.writeIfAbsent(await nextGenerationFile(store, conversation.directory), '{"owner":"b"}')).toBe(
      true,
    );
    expect(toolSaw).toEqual([]);
    // The holder's next heartbeat, a third of a ttl on, finds that generation.
    await clock.advance(TTL / 3);
    const error = await run;
    expect(toolSaw).toEqual(['lease lost']);
    expect(LeaseLostError.isInstance(error) || LeaseLostError.isInstance((error as Error).cause)).toBe(true);
    expect(modelCalls).toBe(1);
    // Its close checkpoints as an idle instance: it watches the new owner's heartbeat (standing still here) for a ttl.
    await advanceUntilSettled(
      clock,
      conversation.close().catch(() => undefined),
      TTL / 4,
    );
  });
});

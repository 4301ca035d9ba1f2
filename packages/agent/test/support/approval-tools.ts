import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { z } from 'zod';
import { type Conversation, defineTool } from '../../src/index.js';
import type { ScriptedReply } from '../../src/testing/index.js';

/**
 * A tool with an observable side effect: each run appends one line `<label>` to `<workspace>/effects.log`, so a
 * test counts how often it ran (across processes, too).
 */
export const effectTool = defineTool({
  name: 'record_effect',
  description: 'Records a labelled side effect.',
  parameters: z.object({ label: z.string().min(1), count: z.number().int().optional() }),
  async execute({ label }, context) {
    testCrashPoint('before-tool-effect');
    await appendFile(join(context.workspace, 'effects.log'), `${label}\n`);
    testCrashPoint('after-tool-effect');
    return { content: `recorded ${label}` };
  },
});

/** The crash-test child dies here (SIGKILL) when `X_TEST_CRASH_POINT` names this point. */
export function testCrashPoint(name: string): void {
  if (process.env.X_TEST_CRASH_POINT !== name) return;
  process.kill(process.pid, 'SIGKILL');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}

/** The scripted model's reply that calls `record_effect` once with `label`. */
export const recordEffectCall = (label: string): ScriptedReply => ({
  toolCalls: [{ name: 'record_effect', arguments: { label } }],
});

/** The scripted model's reply that ends a run. */
export const DONE_REPLY: ScriptedReply = { content: 'Done.' };

/** The labels `record_effect` wrote in `workspace`, in order; none when it never ran. */
export async function readEffects(workspace: string): Promise<string[]> {
  try {
    return (await readFile(join(workspace, 'effects.log'), 'utf8')).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** Every event of the conversation's log, oldest first. */
export async function allEvents(conversation: Conversation): Promise<AnyEvent[]> {
  const events: AnyEvent[] = [];
  for await (const event of conversation.events()) events.push(event);
  return events;
}

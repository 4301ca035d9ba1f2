import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent, HookExecutionEvent, UserRejectObservation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Conversation, createOfflineLLM, defineTool, type HookConfigInput } from '../src/index.js';

// A hook answering `{"continue": false}` (exit 0, no decision) blocks like exit code 2 or `decision: "deny"`:
// the PreToolUse action becomes a hook rejection and the tool never runs. `continue: true` blocks nothing.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-hooks-continue-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  await rm(`${dir}-data`, { recursive: true, force: true, maxRetries: 5 });
});

async function run(hooks: HookConfigInput) {
  const ran: string[] = [];
  const record = defineTool({
    name: 'record',
    description: 'Records that it ran.',
    parameters: z.object({ note: z.string() }),
    execute: ({ note }) => {
      ran.push(note);
      return { content: 'recorded' };
    },
  });
  const events: AnyEvent[] = [];
  const conversation = await Conversation.create({
    agent: new Agent({
      tools: [record],
      llm: createOfflineLLM({
        script: [
          { toolCalls: [{ name: 'record', arguments: { note: 'one' } }] },
          { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] },
        ],
      }),
    }),
    workspace: dir,
    // Beside the workspace: a sandbox is refused where its workspace holds the conversation store.
    persistenceDir: `${dir}-data`,
    durability: 'none',
    hooks,
    onEvent: (event) => events.push(event),
  });
  await conversation.sendMessage('go');
  const result = await conversation.run();
  await conversation.close();
  const rejection = events.find((event): event is UserRejectObservation => event.kind === 'UserRejectObservation');
  const hook = events.find((event): event is HookExecutionEvent => event.kind === 'HookExecutionEvent');
  return { ran, rejection, hook, status: result.status };
}

async function hookScript(output: string): Promise<string> {
  const path = join(dir, 'hook.sh');
  await writeFile(path, `#!/bin/sh\ncat > /dev/null\necho '${output}'\n`);
  await chmod(path, 0o755);
  return path;
}

describe('a hook answering continue', () => {
  it('false from a command blocks the action with its reason', async () => {
    const command = await hookScript('{"continue": false, "reason": "frozen for the release"}');
    const { ran, rejection, hook, status } = await run({
      PreToolUse: [{ matcher: 'record', hooks: [{ command }] }],
    });
    expect(status).toBe('finished');
    expect(ran).toEqual([]);
    expect(hook).toMatchObject({ blocked: true, exit_code: 0, reason: 'frozen for the release' });
    expect(rejection).toMatchObject({ rejection_source: 'hook', rejection_reason: 'frozen for the release' });
  });

  it('false from a function blocks the action', async () => {
    const { ran, rejection } = await run({
      PreToolUse: [{ matcher: 'record', hooks: [{ name: 'freeze', run: () => ({ continue: false }) }] }],
    });
    expect(ran).toEqual([]);
    expect(rejection).toMatchObject({ rejection_source: 'hook' });
  });

  it('true lets the action run', async () => {
    const command = await hookScript('{"continue": true}');
    const { ran, rejection, hook } = await run({ PreToolUse: [{ matcher: 'record', hooks: [{ command }] }] });
    expect(ran).toEqual(['one']);
    expect(rejection).toBeUndefined();
    expect(hook).toMatchObject({ blocked: false, success: true });
  });
});

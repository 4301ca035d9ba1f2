// The runner of one hook moment, with function hooks (no processes): which hooks run and in what order, where a
// block stops the rest, what the outcome says (the first blocker's reason, every hook's context) and what each
// HookExecutionEvent records of the request.
import { tmpdir } from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { createUnsandboxedSandbox } from '../sandbox/unsandboxed.js';
import type { HookInput, HookOutput } from './hook-input.js';
import { HookRunner } from './hook-runner.js';

/** A function hook named `name` answering `output`, noting each call in `calls`. */
function answering(calls: string[], name: string, output: HookOutput | undefined = undefined) {
  return {
    name,
    run: (input: HookInput) => {
      calls.push(`${name}:${input.event_type}:${input.tool_name ?? '-'}`);
      return output;
    },
  };
}

function runner(config: Record<string, unknown>): HookRunner {
  return new HookRunner({ config, workspace: '/work/space', sessionId: 'conv-1' });
}

describe('HookRunner', () => {
  it('runs the hooks of the matching matchers, in configuration order, with the request as input', async () => {
    const calls: string[] = [];
    const inputs: HookInput[] = [];
    const hooks = runner({
      PreToolUse: [
        { matcher: 'terminal', hooks: [answering(calls, 'first')] },
        { matcher: 'file_editor', hooks: [answering(calls, 'other-tool')] },
        {
          matcher: '*',
          hooks: [
            {
              name: 'second',
              run: (input: HookInput) => {
                inputs.push(input);
                calls.push('second');
                return undefined;
              },
            },
          ],
        },
      ],
    });
    const outcome = await hooks.run('PreToolUse', { toolName: 'terminal', toolInput: { command: 'ls' } });
    expect(calls).toEqual(['first:PreToolUse:terminal', 'second']);
    expect(inputs[0]).toEqual({
      event_type: 'PreToolUse',
      tool_name: 'terminal',
      tool_input: { command: 'ls' },
      tool_response: null,
      message: null,
      session_id: 'conv-1',
      working_dir: '/work/space',
      metadata: {},
    });
    expect(outcome).toMatchObject({ blocked: false });
    expect(outcome).not.toHaveProperty('reason');
    expect(outcome).not.toHaveProperty('additionalContext');
    expect(outcome.events.map((event) => event.hook_command)).toEqual(['function:first', 'function:second']);
  });

  it('answers nothing, running nothing, when no hook applies', async () => {
    const calls: string[] = [];
    const hooks = runner({ PostToolUse: [{ matcher: 'terminal', hooks: [answering(calls, 'post')] }] });
    expect(await hooks.run('PostToolUse', { toolName: 'file_editor' })).toEqual({
      events: [],
      results: [],
      blocked: false,
    });
    expect(await hooks.run('Stop')).toEqual({ events: [], results: [], blocked: false });
    expect(calls).toEqual([]);
  });

  for (const type of ['PreToolUse', 'UserPromptSubmit', 'Stop'] as const) {
    it(`stops ${type} hooks at the first block, with its reason`, async () => {
      const calls: string[] = [];
      const hooks = runner({
        [type]: [
          {
            hooks: [
              answering(calls, 'allows', { additionalContext: 'one' }),
              answering(calls, 'denies', { decision: 'deny', reason: 'not now' }),
              answering(calls, 'never', { decision: 'deny', reason: 'too late' }),
            ],
          },
        ],
      });
      const outcome = await hooks.run(type, { toolName: 'terminal' });
      expect(calls.map((call) => call.split(':')[0])).toEqual(['allows', 'denies']);
      expect(outcome).toMatchObject({ blocked: true, reason: 'not now', additionalContext: 'one' });
      expect(outcome.events.map((event) => event.blocked)).toEqual([false, true]);
    });
  }

  for (const type of ['PostToolUse', 'SessionStart', 'SessionEnd'] as const) {
    it(`runs every ${type} hook after a block, giving the first blocker's reason and every context`, async () => {
      const calls: string[] = [];
      const hooks = runner({
        [type]: [
          {
            hooks: [
              answering(calls, 'denies', { decision: 'deny', reason: 'first reason', additionalContext: 'one' }),
              answering(calls, 'also', { continue: false, reason: 'second reason', additionalContext: 'two' }),
              answering(calls, 'quiet'),
            ],
          },
        ],
      });
      const outcome = await hooks.run(type, { toolName: 'terminal' });
      expect(calls.map((call) => call.split(':')[0])).toEqual(['denies', 'also', 'quiet']);
      expect(outcome).toMatchObject({ blocked: true, reason: 'first reason', additionalContext: 'one\ntwo' });
    });
  }

  it('records in each event what the request names, and leaves out what it does not', async () => {
    const calls: string[] = [];
    const hooks = runner({
      UserPromptSubmit: [{ hooks: [answering(calls, 'note', { additionalContext: 'ctx', reason: 'why' })] }],
      SessionStart: [{ hooks: [answering(calls, 'start')] }],
    });
    const { events } = await hooks.run('UserPromptSubmit', {
      message: 'hello',
      messageId: 'm-1',
      actionId: 'a-1',
      toolName: 'terminal',
      hookInput: { message: 'hello' },
    });
    expect(events[0]).toMatchObject({
      kind: 'HookExecutionEvent',
      hook_event_type: 'UserPromptSubmit',
      hook_command: 'function:note',
      tool_name: 'terminal',
      success: true,
      blocked: false,
      exit_code: 0,
      reason: 'why',
      additional_context: 'ctx',
      action_id: 'a-1',
      message_id: 'm-1',
      hook_input: { message: 'hello' },
    });
    const [bare] = (await hooks.run('SessionStart')).events;
    for (const field of [
      'tool_name',
      'reason',
      'additional_context',
      'error',
      'action_id',
      'message_id',
      'hook_input',
    ]) {
      expect(bare, field).not.toHaveProperty(field);
    }
  });

  it('records a hook that threw as an error that blocks nothing', async () => {
    const hooks = runner({
      PreToolUse: [
        {
          hooks: [
            {
              name: 'broken',
              run: () => {
                throw new Error('boom');
              },
            },
          ],
        },
      ],
    });
    const outcome = await hooks.run('PreToolUse', { toolName: 'terminal' });
    expect(outcome.blocked).toBe(false);
    expect(outcome.events[0]).toMatchObject({ success: false, blocked: false, exit_code: -1 });
    expect(outcome.events[0]?.error).toContain('boom');
  });

  it('runs command hooks in the sandbox it is given, with the variables it is given', async () => {
    const sandbox = createUnsandboxedSandbox({ workspace: tmpdir(), warn: () => undefined });
    const opened = vi.fn(async () => sandbox);
    try {
      const hooks = new HookRunner({
        config: { SessionStart: [{ hooks: [{ command: 'printf %s "$EXTRA"' }] }] },
        workspace: tmpdir(),
        sessionId: 'conv-1',
        env: { EXTRA: 'given' },
        sandbox: opened,
      });
      const outcome = await hooks.run('SessionStart');
      expect(outcome.events[0]).toMatchObject({ success: true, stdout: 'given' });
      expect(opened).toHaveBeenCalledTimes(1);
    } finally {
      await sandbox.dispose();
    }
  });
});

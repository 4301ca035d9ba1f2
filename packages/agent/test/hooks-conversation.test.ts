import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent, HookExecutionEvent, MessageEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation, type HookInput, STOP_HOOK_FEEDBACK_PREFIX } from '../src/index.js';
import { type Harness, kindsOf, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

const finish = (message: string) => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });
const terminal = (command: string) => ({ toolCalls: [{ name: 'terminal', arguments: { command } }] });

function hookEvents(events: readonly AnyEvent[]): HookExecutionEvent[] {
  return events.filter((event): event is HookExecutionEvent => event.kind === 'HookExecutionEvent');
}

async function script(name: string, body: string): Promise<string> {
  const path = join(harness.workspace, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

describe('hooks in a conversation', () => {
  it('masks the secrets a hook prints, literal or encoded, in its HookExecutionEvent', async () => {
    const secret = 'hook-secret-value-4242';
    harness = await startHarness([terminal('echo hi'), finish('done')]);
    const encoded = Buffer.from(secret).toString('base64');
    const printer = await script(
      'print.sh',
      `cat > /dev/null\necho "plain ${secret} b64 ${encoded}"\necho "${secret}" >&2`,
    );
    const { conversation, events } = await harness.conversation({
      secrets: { HOOK_TOKEN: secret },
      hooks: { PostToolUse: [{ matcher: 'terminal', hooks: [{ command: printer }] }] },
    });
    await conversation.sendMessage('say hi');
    await conversation.run();
    await conversation.close();
    const [hook] = hookEvents(events);
    expect(hook?.stdout).toContain('plain <secret-hidden> b64 <secret-hidden>');
    expect(hook?.stderr).toContain('<secret-hidden>');
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(JSON.stringify(events)).not.toContain(encoded.slice(2, -2));
  });

  it('a PreToolUse command exiting 2 turns the action into a hook rejection', async () => {
    harness = await startHarness([terminal('touch created.txt'), finish('gave up')]);
    const blocker = await script('block.sh', 'cat > stdin.json\necho "no touching" >&2\nexit 2');
    const { conversation, events } = await harness.conversation({
      hooks: { PreToolUse: [{ matcher: 'terminal', hooks: [{ command: blocker }] }] },
    });
    await conversation.sendMessage('Create a file');
    expect((await conversation.run()).status).toBe('finished');

    expect(kindsOf(events)).toEqual([
      'SystemPromptEvent',
      'MessageEvent',
      'HookExecutionEvent',
      'ActionEvent',
      'UserRejectObservation',
      'ActionEvent',
      'ObservationEvent',
    ]);
    const [hook] = hookEvents(events);
    const action = events.find((event) => event.kind === 'ActionEvent');
    expect(hook).toMatchObject({
      source: 'hook',
      hook_event_type: 'PreToolUse',
      hook_command: blocker,
      tool_name: 'terminal',
      success: false,
      blocked: true,
      exit_code: 2,
      stderr: 'no touching\n',
      action_id: action?.id,
      hook_input: { tool_name: 'terminal', tool_input: { command: 'touch created.txt' } },
    });
    expect(events.find((event) => event.kind === 'UserRejectObservation')).toMatchObject({
      action_id: action?.id,
      rejection_reason: 'no touching',
      rejection_source: 'hook',
    });
    await expect(readFile(join(harness.workspace, 'created.txt'))).rejects.toThrow();
    const stdin = JSON.parse(await readFile(join(harness.workspace, 'stdin.json'), 'utf8')) as HookInput;
    expect(stdin).toMatchObject({ event_type: 'PreToolUse', tool_name: 'terminal', session_id: conversation.id });
    const second = harness.server.requests[1]?.messages as { role: string; content: unknown }[];
    expect(JSON.stringify(second.at(-1))).toContain('Action rejected: no touching');
  });

  it('a PreToolUse block is kept in the persisted state and honoured after a restart', async () => {
    harness = await startHarness([terminal('touch created.txt'), finish('gave up')]);
    const blocker = await script('block.sh', 'echo "not today" >&2\nexit 2');
    const { conversation } = await harness.conversation({
      hooks: { PreToolUse: [{ matcher: 'terminal', hooks: [{ command: blocker }] }] },
      confirmationPolicy: { kind: 'AlwaysConfirm' },
    });
    await conversation.sendMessage('Create a file');
    expect((await conversation.run()).status).toBe('waiting_for_confirmation');
    const [pending] = await conversation.pendingActions();
    expect(conversation.state.blocked_actions).toEqual({ [pending?.id ?? '']: 'not today' });
    await conversation.close();

    // Another process resumes the conversation without any hook configured and approves the action.
    const events: AnyEvent[] = [];
    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
      durability: 'none',
      onEvent: (event) => events.push(event),
    });
    expect(resumed.state.blocked_actions).toEqual({ [pending?.id ?? '']: 'not today' });
    expect((await resumed.run()).status).toBe('finished');
    expect(events.find((event) => event.kind === 'UserRejectObservation')).toMatchObject({
      action_id: pending?.id,
      rejection_reason: 'not today',
      rejection_source: 'hook',
    });
    expect(resumed.state.blocked_actions).toEqual({});
    await expect(readFile(join(harness.workspace, 'created.txt'))).rejects.toThrow();
    await resumed.close();
  });

  it('a blocking UserPromptSubmit hook keeps the message from the model', async () => {
    harness = await startHarness([finish('never asked')]);
    const guard = await script('guard.sh', `echo '{"decision": "deny", "reason": "contains a secret"}'`);
    const { conversation, events } = await harness.conversation({
      hooks: { UserPromptSubmit: [{ hooks: [{ command: guard }] }] },
    });
    await conversation.sendMessage('my password is hunter2');
    expect((await conversation.run()).status).toBe('finished');
    expect(harness.server.requests).toHaveLength(0);
    const message = events.find((event): event is MessageEvent => event.kind === 'MessageEvent');
    expect(hookEvents(events)[0]).toMatchObject({
      hook_event_type: 'UserPromptSubmit',
      blocked: true,
      success: true,
      reason: 'contains a secret',
      message_id: message?.id,
      hook_input: { message: 'my password is hunter2' },
    });
  });

  it('UserPromptSubmit context is added to the message the model sees', async () => {
    harness = await startHarness([finish('ok')]);
    const { conversation, events } = await harness.conversation({
      hooks: { UserPromptSubmit: [{ hooks: [() => ({ additionalContext: 'Branch: main' })] }] },
    });
    await conversation.sendMessage('What branch?');
    await conversation.run();
    const message = events.find((event): event is MessageEvent => event.kind === 'MessageEvent');
    expect(message?.extended_content).toEqual([{ cache_prompt: false, type: 'text', text: 'Branch: main' }]);
    expect(hookEvents(events)[0]?.message_id).toBe(message?.id);
    expect(JSON.stringify(harness.server.requests[0]?.messages)).toContain('Branch: main');
  });

  it('PostToolUse functions see the result; failures are recorded and the run goes on', async () => {
    harness = await startHarness([terminal('echo hello'), finish('done')]);
    const seen: HookInput[] = [];
    const hang = await script('hang.sh', 'sleep 30');
    const { conversation, events } = await harness.conversation({
      hooks: {
        PreToolUse: [{ matcher: 'terminal', hooks: [{ command: hang, timeout: 1 }] }],
        PostToolUse: [
          {
            matcher: 'terminal',
            hooks: [
              (input: HookInput) => {
                seen.push(input);
                return undefined;
              },
              { name: 'broken', run: () => Promise.reject(new Error('disk full')) },
            ],
          },
        ],
      },
    });
    await conversation.sendMessage('Say hello');
    expect((await conversation.run()).status).toBe('finished');
    expect(events.some((event) => event.kind === 'ObservationEvent')).toBe(true);
    expect(seen[0]?.tool_input).toMatchObject({ command: 'echo hello' });
    expect(JSON.stringify(seen[0]?.tool_response)).toContain('hello');
    expect(hookEvents(events).map((event) => [event.hook_event_type, event.success, event.error ?? null])).toEqual([
      ['PreToolUse', false, 'Hook timed out after 1 seconds'],
      ['PostToolUse', true, null],
      ['PostToolUse', false, "Hook function 'broken' threw: disk full"],
    ]);
  });

  it('a blocking Stop hook keeps the agent running with its feedback', async () => {
    harness = await startHarness([finish('first try'), finish('second try')]);
    let stops = 0;
    const { conversation, events } = await harness.conversation({
      hooks: {
        Stop: [
          {
            hooks: [
              () => {
                stops += 1;
                return stops === 1 ? { decision: 'deny', reason: 'Run the tests first' } : undefined;
              },
            ],
          },
        ],
      },
    });
    await conversation.sendMessage('Fix it');
    expect((await conversation.run()).status).toBe('finished');
    expect(stops).toBe(2);
    const feedback = events.filter(
      (event): event is MessageEvent => event.kind === 'MessageEvent' && event.source === 'environment',
    );
    expect(feedback[0]?.llm_message.content[0]).toMatchObject({
      text: `${STOP_HOOK_FEEDBACK_PREFIX} Run the tests first`,
    });
    expect(hookEvents(events).map((event) => [event.hook_event_type, event.blocked])).toEqual([
      ['Stop', true],
      ['Stop', false],
    ]);
    expect(harness.server.requests).toHaveLength(2);
  });

  it('records SessionStart and SessionEnd, and persists the hook config in base_state.json', async () => {
    harness = await startHarness([finish('done')]);
    const { conversation, events } = await harness.conversation({
      hooks: {
        SessionStart: [{ hooks: [{ command: 'echo started' }] }],
        SessionEnd: [{ hooks: [{ command: 'true' }] }],
      },
    });
    await conversation.sendMessage('Hi');
    await conversation.run();
    await conversation.close();
    expect(hookEvents(events).map((event) => [event.hook_event_type, event.stdout])).toEqual([
      ['SessionStart', 'started\n'],
      ['SessionEnd', ''],
    ]);
    const base = JSON.parse(
      await readFile(join(harness.persistenceDir, conversation.directory, 'base_state.json'), 'utf8'),
    ) as { hook_config?: Record<string, unknown> };
    expect(base.hook_config).toMatchObject({
      session_start: [{ matcher: '*', hooks: [{ type: 'command', command: 'echo started', timeout: 60 }] }],
      stop: [],
    });
  });
});

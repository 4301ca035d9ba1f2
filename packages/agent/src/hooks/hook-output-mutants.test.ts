import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HookDefinition, parseHookConfig } from './hook-config.js';
import type { HookInput } from './hook-input.js';
import { blockingReason } from './hook-result.js';
import { runHook } from './run-hook.js';

// One real hook script prints what each case gives it and exits with the given code; each expectation is
// what the reference's HookExecutor makes of the same stdout and exit code, unless the README lists the
// difference.

let dir: string;
let hook: HookDefinition;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-hook-output-'));
  const path = join(dir, 'answer.sh');
  await writeFile(
    path,
    '#!/bin/sh\ncat > /dev/null\nprintf "%s" "$HOOK_STDERR" >&2\nprintf "%s" "$HOOK_STDOUT"\nexit "$HOOK_EXIT"\n',
  );
  await chmod(path, 0o755);
  hook = parseHookConfig({ PreToolUse: [{ hooks: [{ command: path, timeout: 30 }] }] }).pre_tool_use[0]!.hooks[0]!;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

const input: HookInput = {
  event_type: 'PreToolUse',
  tool_name: 'terminal',
  tool_input: { command: 'ls' },
  tool_response: null,
  message: null,
  session_id: 'session-1',
  working_dir: null,
  metadata: {},
};

function answer(stdout: string, options: { exit?: number; stderr?: string } = {}) {
  const env = { HOOK_STDOUT: stdout, HOOK_STDERR: options.stderr ?? '', HOOK_EXIT: String(options.exit ?? 0) };
  return runHook(hook, input, { workspace: dir, env });
}

describe('a hook’s JSON answer: decision', () => {
  it('allow (any case) lets the operation go on as a clean success', async () => {
    for (const decision of ['allow', 'Allow']) {
      const result = await answer(JSON.stringify({ decision, reason: 'looks fine' }));
      expect(result).toMatchObject({ success: true, blocked: false, decision: 'allow', reason: 'looks fine' });
      expect(result.error).toBeUndefined();
    }
  });

  it('deny without a reason blocks with the hook’s stderr as the reason', async () => {
    const result = await answer('{"decision": "deny"}', { stderr: 'policy: no ls\n' });
    expect(result).toMatchObject({ success: true, blocked: true, decision: 'deny' });
    expect(result.reason).toBeUndefined();
    expect(blockingReason([result])).toBe('policy: no ls');
  });

  it('null is no decision: an error that does not block (the reference’s hook fails on it)', async () => {
    const result = await answer('{"decision": null, "reason": "undecided"}');
    expect(result).toMatchObject({ success: false, blocked: false, reason: 'undecided' });
    expect(result.decision).toBeUndefined();
    expect(result.error).toBe(`Hook output is invalid: 'decision' must be "allow" or "deny", got null`);
  });
});

describe('a hook’s JSON answer: reason and additionalContext', () => {
  it('leaves out null values rather than turning them into text', async () => {
    const result = await answer('{"decision": "deny", "reason": null, "additionalContext": null}', {
      stderr: 'from stderr',
    });
    expect(result).toMatchObject({ success: true, blocked: true });
    expect(result.reason).toBeUndefined();
    expect(result.additional_context).toBeUndefined();
    expect(blockingReason([result])).toBe('from stderr');
  });

  it('turns other values into text', async () => {
    const result = await answer('{"reason": 42, "additionalContext": "see CONTRIBUTING.md"}');
    expect(result).toMatchObject({
      success: true,
      blocked: false,
      reason: '42',
      additional_context: 'see CONTRIBUTING.md',
    });
  });
});

describe('a hook’s JSON answer: continue', () => {
  it('blocks on every value Python takes as false', async () => {
    for (const value of ['false', '0', '""', 'null', '[]', '{}']) {
      const result = await answer(`{"continue": ${value}}`);
      expect({ value, blocked: result.blocked, success: result.success }).toEqual({
        value,
        blocked: true,
        success: true,
      });
    }
  });

  it('lets the operation go on for every value Python takes as true', async () => {
    for (const value of ['true', '1', '"no"', '[0]', '{"a": 1}']) {
      const result = await answer(`{"continue": ${value}}`);
      expect({ value, blocked: result.blocked }).toEqual({ value, blocked: false });
    }
  });
});

describe('a hook’s stdout that is not a JSON object', () => {
  it('is ignored when empty, plain text, or JSON of another type', async () => {
    for (const stdout of ['', '   \n', 'deny', '[{"decision": "deny"}]', '"deny"', 'null', '2']) {
      const result = await answer(stdout);
      expect({ stdout, success: result.success, blocked: result.blocked, error: result.error }).toEqual({
        stdout,
        success: true,
        blocked: false,
        error: undefined,
      });
    }
  });
});

// A hook killed by a signal reports 128 + the signal's number, as a shell does (`kill -ABRT` → 134), whichever
// signal it was: the reason a crashed hook gives in its HookExecutionEvent must name the signal that killed it.
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/sandbox.js';
import { createUnsandboxedSandbox } from '../../sandbox/unsandboxed.js';
import { spawnHook } from './spawn-hook.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.dispose()));
});

function run(command: string) {
  // Unsandboxed: the hook's shell is the child itself, so its death by a signal reaches us as that signal.
  const sandbox = createUnsandboxedSandbox({ workspace: tmpdir(), warn: () => undefined });
  sandboxes.push(sandbox);
  return spawnHook({ sandbox, command, cwd: tmpdir(), env: { PATH: '/usr/bin:/bin' }, stdin: '', timeoutMs: 120_000 });
}

describe('spawnHook, a hook killed by a signal', () => {
  for (const [signal, code] of [
    ['TERM', 143],
    ['ABRT', 134],
    ['QUIT', 131],
    ['USR1', 138],
  ] as const) {
    it(`reports SIG${signal} as exit code ${code}`, async () => {
      expect(await run(`kill -${signal} $$`)).toMatchObject({ kind: 'exited', exitCode: code });
    });
  }
});

import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTerminalTool } from './terminal-tool.js';
import { ToolExecutionError } from './tool-execution-error.js';

let workspace: string;

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'x-terminal-start-')));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
});

describe('terminal whose shell cannot be started', () => {
  it('fails the action with a ToolExecutionError naming the shell and why, instead of hanging', async () => {
    // Unsandboxed, the shell is spawned directly, so a missing one is a spawn error (inside bubblewrap it would be
    // an exit during start-up).
    const shell = join(workspace, 'no-such-shell');
    const terminal = createTerminalTool({ shell, sandboxPolicy: { mode: 'unsandboxed' } });
    try {
      const failed = terminal
        .execute({ command: 'echo hi', kind: 'TerminalAction' }, { workspace, conversationId: 'c' })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      const error = await failed;
      expect(error).toBeInstanceOf(ToolExecutionError);
      expect((error as Error).message.startsWith(`Cannot start '${shell}' in '${workspace}': `)).toBe(true);
      expect((error as Error).message).toContain('ENOENT');
    } finally {
      await terminal.closeAll();
    }
  });
});

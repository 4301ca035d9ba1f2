// The terminal's processes do not outlive what owns them: closing the conversation, `closeAll`, and the host
// process exiting each end the shell and every process its commands started, including those that left its
// process group (`setsid`) and grandchildren.
import { spawn } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTerminalTool } from '../src/index.js';
import { processGone, waitUntilGone } from '../src/testing/index.js';
import { spawnLongRunningCommands } from './support/long-running-commands.js';

let workspace: string;
const started: number[] = [];
beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'x-terminal-shutdown-')));
});
afterAll(async () => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone, as it should be.
    }
  }
  await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
});

async function startAll(terminal: ReturnType<typeof createTerminalTool>, conversationId: string): Promise<number[]> {
  const pids = await spawnLongRunningCommands(terminal, { workspace, conversationId });
  started.push(...pids);
  expect(pids).toHaveLength(5);
  for (const pid of pids) expect(await processGone(pid)).toBe(false);
  return pids;
}

describe('terminal processes at shutdown', () => {
  it('closing a conversation kills its shell, background jobs, setsid jobs and grandchildren', async () => {
    const terminal = createTerminalTool();
    const pids = await startAll(terminal, 'closing');
    const other = await startAll(terminal, 'other');
    await terminal.closeConversation?.('closing');
    expect(await waitUntilGone(pids)).toEqual([]);
    // Another conversation's shell is untouched.
    for (const pid of other) expect(await processGone(pid)).toBe(false);
    await terminal.closeAll();
    expect(await waitUntilGone(other)).toEqual([]);
  });

  it.each(['exit', 'throw'])(
    'a host process that ends (%s) leaves none of them running',
    async (how) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/terminal-child.ts', how], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
      });
      child.stderr.on('data', (chunk) => {
        output += chunk;
      });
      const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
      expect(code, output).toBe(how === 'exit' ? 0 : 1);
      const line = /^\[[\d,]+\]$/m.exec(output)?.[0];
      expect(line, output).toBeDefined();
      const pids = JSON.parse(line as string) as number[];
      started.push(...pids);
      expect(pids).toHaveLength(5);
      expect(await waitUntilGone(pids)).toEqual([]);
    },
    120_000,
  );
});

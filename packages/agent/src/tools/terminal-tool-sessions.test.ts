// The terminal's sessions over their life: actions of one conversation run one after another however they are
// issued, and a sandbox the tool opened itself (no conversation's sandbox) is disposed with its session.
import { access, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../sandbox/sandbox.js';
import { openDefaultSandbox, type SandboxOpener } from '../sandboxing/sandbox-opener.js';
import { createTerminalTool } from './terminal-tool.js';

let workspace: string;

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'x-terminal-sessions-')));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
});

const text = (observation: { content: { type: string }[] }) =>
  observation.content.map((part) => ('text' in part ? part.text : '')).join('');

/** Resolves once `path` exists (polled: the shell creates it on its own time). */
async function exists(path: string): Promise<void> {
  for (;;) {
    try {
      await access(path);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe('terminal: actions of one conversation', () => {
  it('wait for every earlier action, also one issued after an earlier one finished', async () => {
    const terminal = createTerminalTool();
    const context = { workspace, conversationId: 'queued' };
    const run = (command: string, timeout?: number) =>
      terminal.execute({ command, ...(timeout === undefined ? {} : { timeout }), kind: 'TerminalAction' }, context);
    try {
      const first = run('echo first');
      // Blocks until the test lets it go: the action after it must wait, not find it running.
      const blocking = run('touch started; while [ ! -e go ]; do sleep 0.05; done; echo second', 120);
      expect(text(await first)).toBe('first');
      await exists(join(workspace, 'started'));
      const third = run('echo third');
      await writeFile(join(workspace, 'go'), '');
      expect(text(await blocking)).toBe('second');
      const observation = await third;
      expect(observation).toMatchObject({ is_error: false, exit_code: 0 });
      expect(text(observation)).toBe('third');
    } finally {
      await terminal.closeAll();
      await rm(join(workspace, 'go'), { force: true });
      await rm(join(workspace, 'started'), { force: true });
    }
  });
});

describe('terminal: a sandbox the tool opens itself', () => {
  it('is disposed when its conversation closes, and by closeAll', async () => {
    const opened: { disposed: number }[] = [];
    const openSandbox: SandboxOpener = async (request) => {
      const sandbox = await openDefaultSandbox(request);
      const record = { disposed: 0 };
      opened.push(record);
      return {
        ...sandbox,
        prepare: (command) => sandbox.prepare(command),
        spawn: (options) => sandbox.spawn(options),
        signal: (pid, signal) => sandbox.signal(pid, signal),
        dispose: async () => {
          record.disposed += 1;
          await sandbox.dispose();
        },
      } satisfies Sandbox;
    };
    const terminal = createTerminalTool({ openSandbox });
    const run = (conversationId: string) =>
      terminal.execute({ command: 'echo hi', kind: 'TerminalAction' }, { workspace, conversationId });
    try {
      expect(text(await run('a'))).toBe('hi');
      expect(text(await run('b'))).toBe('hi');
      expect(opened.map((record) => record.disposed)).toEqual([0, 0]);
      await terminal.closeConversation?.('a');
      expect(opened.map((record) => record.disposed)).toEqual([1, 0]);
      // The closed conversation gets a new sandbox if it acts again.
      expect(text(await run('a'))).toBe('hi');
      expect(opened).toHaveLength(3);
    } finally {
      await terminal.closeAll();
    }
    expect(opened.map((record) => record.disposed)).toEqual([1, 1, 1]);
  });
});

describe('terminal: a sandbox the tool could not open', () => {
  it('is opened again at the next action, not kept failed for the conversation', async () => {
    let attempts = 0;
    const openSandbox: SandboxOpener = async (request) => {
      attempts += 1;
      if (attempts === 1) throw new Error('bubblewrap is being upgraded');
      return openDefaultSandbox(request);
    };
    const terminal = createTerminalTool({ openSandbox });
    const run = () =>
      terminal.execute({ command: 'echo hi', kind: 'TerminalAction' }, { workspace, conversationId: 'c' });
    try {
      await expect(run()).rejects.toThrow("Cannot start the terminal's sandbox: bubblewrap is being upgraded");
      expect(text(await run())).toBe('hi');
      expect(attempts).toBe(2);
    } finally {
      await terminal.closeAll();
    }
  });
});

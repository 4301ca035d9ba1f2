import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, type CliResult, cleanEnv, hasColorCodes, runCli, tempDir } from './helpers/run-cli.js';

const PTY_SESSION = fileURLToPath(new URL('./helpers/pty-session.py', import.meta.url));
const home = tempDir();
afterAll(() => home.remove());

/** `x …args` in a pseudo-terminal (stdin, stdout and stderr are a TTY), typing `answers` at the prompts. */
function runInTerminal(args: string[], answers: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [PTY_SESSION, JSON.stringify(answers), process.execPath, BIN, ...args], {
      env: cleanEnv({ X_HOME: home.path, TERM: 'xterm-256color', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const workspaceOf = (output: string): string => /workspace\s+(\S+)/.exec(output)?.[1] ?? '';
const idOf = (output: string): string => /Conversation (?:\S*\[\d+m)?([0-9a-f-]{36})/.exec(output)?.[1] ?? '';

describe('x run --confirm always on a terminal', () => {
  it('runs the actions the user approves with y', async () => {
    const result = await runInTerminal(['run', '--demo', '--confirm', 'always', '--no-color'], ['y', 'y']);
    expect(result.code).toBe(0);
    expect(result.stdout.match(/Run it\? \[y\/n\/d\/e\/s\]/g)).toHaveLength(2);
    expect(result.stdout).toContain('The agent wants to run this action:');
    expect(result.stdout).toContain('⚙ file_editor: create hello.txt');
    expect(result.stdout).toContain('✔ Finished.');
    expect(existsSync(join(workspaceOf(result.stdout), 'hello.txt'))).toBe(true);
  });

  it('denies with a reason for d: the model sees the reason, nothing runs', async () => {
    const result = await runInTerminal(
      ['run', '--demo', '--confirm', 'always', '--no-color'],
      ['d', 'not in this repo', 'n'],
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Reason (the agent sees it):');
    expect(existsSync(join(workspaceOf(result.stdout), 'hello.txt'))).toBe(false);
    const rejections = await runCli(['events', idOf(result.stdout), '--kind', 'UserRejectObservation', '--json'], {
      env: { X_HOME: home.path },
    });
    const first = JSON.parse(rejections.stdout.trim().split('\n')[0] ?? '{}') as { rejection_reason?: string };
    expect(first.rejection_reason).toBe('not in this repo');
  });

  it('records a rejection for n, tells the model, and runs nothing', async () => {
    const result = await runInTerminal(['run', '--demo', '--confirm', 'always', '--no-color'], ['n', 'n']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('✋ Rejected file_editor');
    expect(result.stdout).toContain('✋ Rejected terminal');
    expect(existsSync(join(workspaceOf(result.stdout), 'hello.txt'))).toBe(false);

    const rejections = await runCli(['events', idOf(result.stdout), '--kind', 'UserRejectObservation', '--json'], {
      env: { X_HOME: home.path },
    });
    const events = rejections.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { tool_name: string; rejection_reason: string });
    expect(events.map((event) => event.tool_name)).toEqual(['file_editor', 'terminal']);
    expect(events[0]?.rejection_reason).toBe('User rejected the action');
  });

  it('colors on a terminal, but not with NO_COLOR', async () => {
    const colored = await runInTerminal(['run', '--demo'], []);
    expect(colored.code).toBe(0);
    expect(hasColorCodes(colored.stdout)).toBe(true);
    const plain = await runInTerminal(['run', '--demo'], [], { NO_COLOR: '1' });
    expect(plain.code).toBe(0);
    expect(hasColorCodes(plain.stdout)).toBe(false);
    expect(plain.stdout).toContain('✔ Finished.');
  });
});

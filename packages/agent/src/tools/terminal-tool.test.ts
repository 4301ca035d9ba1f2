import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTerminalTool } from './terminal-tool.js';
import type { ToolContext } from './tool.js';

let workspace: string;
let context: ToolContext;
const terminal = createTerminalTool();

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'x-terminal-')));
  context = { workspace };
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const run = (command: string, extra: Partial<ToolContext> = {}, tool = terminal) =>
  tool.execute({ command, kind: 'TerminalAction' }, { ...context, ...extra });

const text = (observation: { content: { type: string }[] }) =>
  observation.content.map((part) => ('text' in part ? part.text : '')).join('');

/** True once the process is gone (or only a zombie waiting to be reaped). */
async function processEnded(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return true;
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('terminal tool', () => {
  it('returns the output with a final exit-code line', async () => {
    const observation = await run('echo hello');
    expect(observation).toEqual({
      content: [{ cache_prompt: false, type: 'text', text: 'hello\n[The command completed with exit code 0.]' }],
      is_error: false,
      command: 'echo hello',
      exit_code: 0,
      timed_out: false,
      kind: 'TerminalObservation',
    });
  });

  it('interleaves stdout and stderr in the order they were written', async () => {
    expect(text(await run('echo out; echo err >&2; echo out2'))).toBe(
      'out\nerr\nout2\n[The command completed with exit code 0.]',
    );
  });

  it('marks a non-zero exit code as an error', async () => {
    const observation = await run('echo failing; exit 3');
    expect(observation.exit_code).toBe(3);
    expect(observation.is_error).toBe(true);
    expect(text(observation)).toBe('failing\n[The command completed with exit code 3.]');
  });

  it('runs in the workspace, in a fresh shell each time', async () => {
    expect(text(await run('pwd'))).toBe(`${workspace}\n[The command completed with exit code 0.]`);
    await run('cd / && export LEFT_BEHIND=1');
    expect(text(await run('pwd; echo "[$LEFT_BEHIND]"'))).toBe(
      `${workspace}\n[]\n[The command completed with exit code 0.]`,
    );
  });

  it('passes the context environment on top of the process environment', async () => {
    const observation = await run('echo "$MY_VAR"; test -n "$PATH" && echo has-path', { env: { MY_VAR: 'custom' } });
    expect(text(observation)).toBe('custom\nhas-path\n[The command completed with exit code 0.]');
  });

  it('masks secret values in the output', async () => {
    const observation = await run('echo "token=$TOKEN"', {
      env: { TOKEN: 's3cr3t-v4lue' },
      secretValues: ['s3cr3t-v4lue'],
    });
    expect(text(observation)).toBe('token=<secret-hidden>\n[The command completed with exit code 0.]');
  });

  it('kills the whole process group on timeout', async () => {
    const observation = await terminal.execute(
      { command: 'sleep 60 & echo $! > sleeper.pid; echo started; wait', timeout: 1, kind: 'TerminalAction' },
      context,
    );
    expect(observation.timed_out).toBe(true);
    expect(observation.exit_code).toBeNull();
    expect(observation.is_error).toBe(true);
    expect(text(observation)).toBe('started\n[The command timed out after 1 seconds and was killed.]');
    const pid = Number(await readFile(join(workspace, 'sleeper.pid'), 'utf8'));
    expect(await processEnded(pid)).toBe(true);
  });

  it('uses the configured default timeout', async () => {
    const quick = createTerminalTool({ timeoutSeconds: 1 });
    const observation = await run('sleep 60', {}, quick);
    expect(observation.timed_out).toBe(true);
  });

  it('kills the command when the signal aborts', async () => {
    const controller = new AbortController();
    const pending = run('echo $$ > shell.pid; sleep 60', { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    const observation = await pending;
    expect(observation.exit_code).toBeNull();
    expect(observation.timed_out).toBe(false);
    expect(observation.is_error).toBe(true);
    expect(text(observation)).toContain('[The command was interrupted and killed.]');
    const pid = Number(await readFile(join(workspace, 'shell.pid'), 'utf8'));
    expect(await processEnded(pid)).toBe(true);
  });

  it('cuts huge output in the middle and says how much was dropped', async () => {
    const small = createTerminalTool({ maxOutputChars: 1000 });
    const observation = await run("head -c 100000 /dev/zero | tr '\\0' a; printf END", {}, small);
    const output = text(observation);
    expect(output).toContain('<response clipped: 99003 characters omitted from the middle of this output>');
    expect(output.startsWith('a'.repeat(500))).toBe(true);
    expect(output).toContain(`${'a'.repeat(497)}END\n[The command completed with exit code 0.]`);
    expect(output.length).toBeLessThan(1200);
  });

  it('returns when the shell exits even if a background job keeps the output pipe open', async () => {
    const observation = await run('sleep 60 & echo "pid=$!"');
    const pid = Number(/pid=(\d+)/.exec(text(observation))?.[1]);
    try {
      expect(observation.exit_code).toBe(0);
      expect(observation.timed_out).toBe(false);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });
});

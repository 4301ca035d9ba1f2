import { mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventToLlmMessage, type Observation } from '@x/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTerminalTool } from './terminal-tool.js';
import type { ToolContext } from './tool.js';

let workspace: string;
let context: ToolContext;
let counter = 0;
const terminal = createTerminalTool({ noChangeTimeoutSeconds: 1 });

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'x-terminal-')));
});
afterAll(async () => {
  await terminal.closeAll();
  await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
});

/** A fresh conversation (its own shell session) per test. */
function newContext(extra: Partial<ToolContext> = {}): ToolContext {
  counter += 1;
  context = { workspace, conversationId: `conversation-${counter}`, ...extra };
  return context;
}

const run = (command: string, fields: Record<string, unknown> = {}, ctx: ToolContext = context) =>
  terminal.execute({ command, ...fields, kind: 'TerminalAction' }, ctx);

const text = (observation: { content: { type: string }[] }) =>
  observation.content.map((part) => ('text' in part ? part.text : '')).join('');

/** What the LLM reads for an observation. */
function llmText(observation: Observation): string {
  const message = eventToLlmMessage({
    id: 'o',
    timestamp: '2026-01-01T00:00:00',
    source: 'environment',
    tool_name: 'terminal',
    tool_call_id: 'c',
    observation,
    action_id: 'a',
    extended_content: [],
    kind: 'ObservationEvent',
  } as never);
  return (message?.content ?? []).map((part) => ('text' in part ? part.text : '')).join('');
}

/**
 * Host pids of the live `sleep <seconds>` processes (each test sleeps its own number of seconds). `$!` cannot say:
 * inside the sandbox it is a pid of the sandbox's own PID namespace.
 */
async function sleepers(seconds: number): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8');
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      if (cmdline === `sleep\0${seconds}\0` && !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) {
        found.push(Number(name));
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** True once every `sleep <seconds>` process is gone (polled: killing is asynchronous); false after a minute. */
async function sleepersEnded(seconds: number): Promise<boolean> {
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    if ((await sleepers(seconds)).length === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('terminal tool: observation fields (reference TerminalObservation)', () => {
  it('returns the output with the exit code and working directory in metadata', async () => {
    newContext();
    const observation = await run('echo hello');
    expect(Object.keys(observation)).toEqual([
      'content',
      'is_error',
      'command',
      'exit_code',
      'timeout',
      'metadata',
      'kind',
    ]);
    expect(observation).toMatchObject({
      content: [{ cache_prompt: false, type: 'text', text: 'hello' }],
      is_error: false,
      command: 'echo hello',
      exit_code: 0,
      timeout: false,
      kind: 'TerminalObservation',
    });
    const metadata = observation.metadata as Record<string, unknown>;
    expect(Object.keys(metadata)).toEqual(
      expect.arrayContaining([
        'exit_code',
        'pid',
        'hostname',
        'working_dir',
        'py_interpreter_path',
        'prefix',
        'suffix',
      ]),
    );
    expect(metadata).toMatchObject({ exit_code: 0, pid: -1, working_dir: workspace, prefix: '' });
    expect(metadata.suffix).toBe('\n[The command completed with exit code 0.]');
    expect(observation).not.toHaveProperty('timed_out');
  });

  it('ends the LLM text with the working-directory and exit-code lines, as the reference does', async () => {
    newContext();
    const observation = await run('echo hi; (exit 3)');
    expect(observation.is_error).toBe(false);
    expect(observation.exit_code).toBe(3);
    const escaped = workspace.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(llmText(observation)).toMatch(
      new RegExp(
        `^hi\\n\\[The command completed with exit code 3\\.\\]\\n\\[Current working directory: ${escaped}\\]` +
          '(\\n\\[Python interpreter: [^\\]]+\\])?\\n\\[Command finished with exit code 3\\]$',
      ),
    );
  });

  it('writes the action defaults the reference writes (is_input, reset)', async () => {
    const { parseToolCall } = await import('./parse-tool-call.js');
    const parsed = parseToolCall(
      { id: 'c1', name: 'terminal', arguments: '{"command": "ls"}', origin: 'completion' } as never,
      [terminal],
      { securityAnalyzerEnabled: false },
    );
    expect(parsed.ok && parsed.action).toEqual({
      command: 'ls',
      is_input: false,
      reset: false,
      kind: 'TerminalAction',
    });
  });
});

describe('terminal tool: one persistent session per conversation', () => {
  it('keeps cd, export, functions and shell variables between calls', async () => {
    newContext();
    await run('mkdir -p sub && cd sub');
    await run('export GREETING=hello; shout() { echo "$1!"; }; counter=41');
    const observation = await run('pwd; echo $GREETING; shout hey; echo $((counter + 1))');
    expect(text(observation)).toBe(`${workspace}/sub\nhello\nhey!\n42`);
    expect((observation.metadata as { working_dir: string }).working_dir).toBe(`${workspace}/sub`);
  });

  it('gives each conversation its own session', async () => {
    const first = newContext();
    await run('cd / && export ONLY_HERE=1', {}, first);
    const second = newContext();
    expect(text(await run('pwd; echo "[$ONLY_HERE]"', {}, second))).toBe(`${workspace}\n[]`);
    expect(text(await run('pwd; echo "[$ONLY_HERE]"', {}, first))).toBe('/\n[1]');
  });

  it('interleaves stdout and stderr and runs multi-line commands and heredocs', async () => {
    newContext();
    expect(text(await run('echo out; echo err >&2; echo out2'))).toBe('out\nerr\nout2');
    expect(text(await run("cat <<'EOF'\nline $1\nEOF\necho done"))).toBe('line $1\ndone');
  });

  it('restarts the shell when it exited, saying so', async () => {
    newContext();
    await run('export LOST=1');
    const exited = await run('exit 7');
    expect(exited).toMatchObject({ is_error: false, exit_code: 7, timeout: false });
    const next = await run('echo "[$LOST]"');
    expect(text(next)).toBe(
      'Terminal session has been reset. All previous environment variables and session state have been cleared.\n\n[]',
    );
    expect(next.command).toBe('[RESET] echo "[$LOST]"');
  });

  it('reports a shell that exited with code 0 as code 0', async () => {
    newContext();
    const exited = await run('exit');
    expect(exited).toMatchObject({ is_error: false, exit_code: 0, timeout: false });
    expect((exited.metadata as { suffix: string }).suffix).toContain('The shell exited with code 0.');
  });

  it('reset: true starts a fresh session', async () => {
    newContext();
    await run('export KEPT=1');
    const reset = await run('', { reset: true });
    expect(reset).toMatchObject({ command: '[RESET]', exit_code: 0, is_error: false, timeout: false });
    expect(text(await run('echo "[$KEPT]"'))).toBe('[]');
    await expect(run('x', { reset: true, is_input: true })).rejects.toThrow('Cannot use reset=True with is_input=True');
  });
});

describe('terminal tool: soft timeouts and input to a running command', () => {
  it('returns partial output with exit code -1 after the timeout and lets is_input talk to the command', async () => {
    newContext();
    // The soft timeout is real time: it is long enough that the echo's output is in, however loaded the machine.
    const first = await run('echo started; read answer; echo "got $answer"', { timeout: 5 });
    expect(first.exit_code).toBe(-1);
    // What the tool's description tells the model to look for is what it returns.
    expect(terminal.description).toContain(
      `If a command returns exit code \`${first.exit_code}\`, it hit the soft timeout`,
    );
    expect(first.timeout).toBe(true);
    expect(text(first)).toBe('started');
    expect((first.metadata as { suffix: string }).suffix).toMatch(
      /^\n\[The command timed out after 5\.0 seconds\. You may wait/,
    );
    expect(llmText(first)).not.toContain('[Command finished');

    const refused = await run('echo other');
    expect(refused.is_error).toBe(true);
    expect(llmText(refused)).toContain('[Your command "echo other" is NOT executed.');

    const answered = await run('forty-two', { is_input: true });
    expect(answered.exit_code).toBe(0);
    expect(text(answered)).toBe('got forty-two');
  });

  it('C-c interrupts the running command and the session survives', async () => {
    newContext();
    await run('export SURVIVES=yes');
    const started = await run('sleep 600');
    expect(started.exit_code).toBe(-1);
    expect((started.metadata as { suffix: string }).suffix).toContain('has no new output after 1 seconds');
    const interrupted = await run('C-c', { is_input: true });
    expect(interrupted.exit_code).toBe(130);
    expect((interrupted.metadata as { suffix: string }).suffix).toBe(
      '\n[The command completed with exit code 130. CTRL+C was sent.]',
    );
    expect(text(await run('echo $SURVIVES'))).toBe('yes');
  });

  it('an empty command reads more output of the running command', async () => {
    newContext();
    const started = await run('echo one; read go; echo two', { timeout: 5 });
    expect(text(started)).toBe('one');
    await run('', { is_input: true, timeout: 0.3 });
    const ended = await run('go', { is_input: true });
    expect(text(ended)).toBe('two');
  });

  it('refuses input and log reads when nothing runs', async () => {
    newContext();
    expect(text(await run(''))).toBe('No previous running command to retrieve logs from.');
    expect(text(await run('y', { is_input: true }))).toBe('No previous running command to interact with.');
  });
});

describe('terminal tool: output, secrets and process lifetime', () => {
  it('truncates long output in the middle with the reference notice', async () => {
    const small = createTerminalTool({ maxOutputChars: 200 });
    const ctx = newContext();
    try {
      const observation = await small.execute(
        { command: 'for i in $(seq 1 2000); do echo line-$i; done', kind: 'TerminalAction' },
        ctx,
      );
      const output = text(observation);
      expect(output.length).toBe(200);
      expect(output.startsWith('line-1\n')).toBe(true);
      expect(output).toContain('<response clipped><NOTE>Due to the max output limit');
      expect(output.endsWith('line-2000')).toBe(true);
    } finally {
      await small.closeAll();
    }
  });

  it('exports the secrets a command mentions and masks their values', async () => {
    newContext({ env: { API_TOKEN: 'tok-123456' }, secretValues: ['tok-123456'] });
    const observation = await run('echo "token=$API_TOKEN"');
    expect(text(observation)).toBe('token=<secret-hidden>');
  });

  it("reports the command's own exit code and output after exporting the secrets it mentions", async () => {
    newContext({ env: { API_TOKEN: 'tok-123456' }, secretValues: ['tok-123456'] });
    const observation = await run('test "$API_TOKEN" = tok-123456 && echo exported; false');
    expect(text(observation)).toBe('exported');
    expect(observation.exit_code).toBe(1);
    expect(text(await run('echo next'))).toBe('next');
  });

  it('refuses a Python literal as a command with the reference hint', async () => {
    newContext();
    const observation = await run('[{"a": 1}]');
    // As the reference's: an error, no exit code (no command ran), not a timeout.
    expect(observation).toMatchObject({ is_error: true, command: '[{"a": 1}]', timeout: false });
    expect(observation).not.toHaveProperty('exit_code');
    expect(text(observation)).toContain(
      '[Tool-argument error] The `command` argument looks like a Python/JSON list literal',
    );
  });

  it('kills the process group on abort', async () => {
    const controller = new AbortController();
    newContext({ signal: controller.signal });
    const pending = run('sleep 60101 & echo $! > bg.pid; sleep 60101', { timeout: 600 });
    let pid = 0;
    const deadline = performance.now() + 60_000;
    while (pid === 0 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      pid = Number.parseInt(await readFile(join(workspace, 'bg.pid'), 'utf8').catch(() => '0'), 10) || 0;
    }
    expect((await sleepers(60101)).length).toBeGreaterThan(0);
    controller.abort();
    const observation = await pending;
    expect(observation).toMatchObject({ is_error: true, exit_code: -1, timeout: false });
    expect(await sleepersEnded(60101)).toBe(true);
    await rm(join(workspace, 'bg.pid'), { force: true });
  });

  it('kills the session and its background jobs when the conversation closes', async () => {
    const ctx = newContext();
    const observation = await run('sleep 60102 & echo $!');
    const pid = Number.parseInt(text(observation), 10);
    expect(observation.metadata).toMatchObject({ pid });
    expect(await sleepers(60102)).toHaveLength(1);
    await terminal.closeConversation?.(ctx.conversationId!);
    expect(await sleepersEnded(60102)).toBe(true);
  });

  it('reads observations written by older x versions (timed_out, no metadata) unchanged for the LLM', () => {
    const old = {
      content: [{ cache_prompt: false, type: 'text' as const, text: 'hi\n[The command completed with exit code 0.]' }],
      is_error: false,
      command: 'echo hi',
      exit_code: 0,
      timed_out: false,
      kind: 'TerminalObservation',
    };
    expect(llmText(old as Observation)).toBe('hi\n[The command completed with exit code 0.]');
  });
});

describe('terminal tool: a command that never stops printing', () => {
  it('returns after maxWaitSeconds with exit code -1 and keeps running until C-c', async () => {
    const capped = createTerminalTool({ maxWaitSeconds: 0.5, maxOutputChars: 100 });
    const ctx = newContext();
    try {
      const first = await capped.execute({ command: 'yes', kind: 'TerminalAction' }, ctx);
      expect(first.exit_code).toBe(-1);
      expect((first.metadata as { suffix: string }).suffix).toMatch(/^\n\[The command timed out after 0\.5 seconds\./);
      expect(text(first).length).toBe(100);
      const stopped = await capped.execute({ command: 'C-c', is_input: true, kind: 'TerminalAction' }, ctx);
      expect(stopped.exit_code).toBe(130);
    } finally {
      await capped.closeAll();
    }
  });
});

describe('terminal tool: a shell that exits', () => {
  it('takes the jobs it left running with it', async () => {
    newContext();
    const observation = await run('sleep 60103 & echo $!; exit 4');
    expect(observation.exit_code).toBe(4);
    const pid = Number.parseInt(text(observation), 10);
    expect(pid).toBeGreaterThan(0);
    expect(await sleepersEnded(60103)).toBe(true);
  });
});

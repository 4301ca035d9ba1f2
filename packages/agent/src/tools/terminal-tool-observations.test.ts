// What a terminal observation says of the command it reports on, field by field, as the reference's
// TerminalObservation and CmdOutputMetadata say it: who ran it, whether a timeout is an error, and when the output
// is announced as the continuation of what an earlier observation already showed.
import { access, mkdtemp, realpath, rm } from 'node:fs/promises';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTerminalTool } from './terminal-tool.js';
import type { ToolContext } from './tool.js';

const continuePrefix = '[Below is the output of the previous command.]\n';

let workspace: string;
let counter = 0;
const terminal = createTerminalTool();

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'x-terminal-observations-')));
});
afterAll(async () => {
  await terminal.closeAll();
  await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
});

/** A fresh conversation (its own shell session) per test, and a runner bound to it. */
function newRunner(): (command: string, fields?: Record<string, unknown>) => ReturnType<typeof terminal.execute> {
  counter += 1;
  const context: ToolContext = { workspace, conversationId: `observations-${counter}` };
  return (command, fields = {}) => terminal.execute({ command, ...fields, kind: 'TerminalAction' }, context);
}

const text = (observation: { content: { type: string }[] }) =>
  observation.content.map((part) => ('text' in part ? part.text : '')).join('');
const prefixOf = (observation: Record<string, unknown>) => (observation.metadata as { prefix: string }).prefix;

describe('terminal observation metadata', () => {
  it('names the user and the short host name that ran a completed command', async () => {
    const run = newRunner();
    const observation = await run('true');
    expect(observation.metadata).toMatchObject({
      exit_code: 0,
      username: userInfo().username,
      hostname: hostname().split('.')[0],
    });
  });
});

describe('a command still running when the call returns', () => {
  it('is not an error: exit code -1 and timeout true', async () => {
    const run = newRunner();
    const waiting = await run('read line', { timeout: 0.5 });
    expect(waiting).toMatchObject({ is_error: false, exit_code: -1, timeout: true });
    expect((await run('done', { is_input: true })).exit_code).toBe(0);
  });

  it('marks later output as the continuation only once an observation of this command showed some', async () => {
    const run = newRunner();
    const first = await run('echo one; read go; echo two; read again; echo three', { timeout: 3 });
    expect(text(first)).toBe('one');
    expect(prefixOf(first)).toBe('');
    const second = await run('go', { is_input: true, timeout: 3 });
    expect(text(second)).toBe('two');
    expect(prefixOf(second)).toBe(continuePrefix);
    const done = await run('again', { is_input: true });
    expect(text(done)).toBe('three');

    // The next command starts afresh: what the previous one showed does not make its output a continuation.
    const silent = await run('read answer; echo "got $answer"', { timeout: 0.5 });
    expect(text(silent)).toBe('');
    const stillSilent = await run('', { is_input: true, timeout: 0.3 });
    expect(text(stillSilent)).toBe('');
    expect(prefixOf(stillSilent)).toBe('');
    const answered = await run('yes', { is_input: true });
    expect(text(answered)).toBe('got yes');
    expect(prefixOf(answered)).toBe('');
  });
});

describe('a command interrupted by an abort', () => {
  it('reports the working directory the last completed command left', async () => {
    const controller = new AbortController();
    const context: ToolContext = { workspace, conversationId: 'observations-abort', signal: controller.signal };
    const run = (command: string, fields: Record<string, unknown> = {}) =>
      terminal.execute({ command, ...fields, kind: 'TerminalAction' }, context);
    await run('mkdir -p moved && cd moved');
    const pending = run('touch started; sleep 60104', { timeout: 600 });
    // Aborted once the command runs (polled: the shell starts it on its own time).
    for (;;) {
      if (
        await access(join(workspace, 'moved', 'started')).then(
          () => true,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    controller.abort();
    const observation = await pending;
    expect(observation).toMatchObject({ is_error: true, exit_code: -1 });
    expect((observation.metadata as { working_dir: string }).working_dir).toBe(join(workspace, 'moved'));
  });
});

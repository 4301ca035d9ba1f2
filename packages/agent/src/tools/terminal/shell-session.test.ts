import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/sandbox.js';
import { ShellSession } from './shell-session.js';

/**
 * A stand-in shell whose output the test writes, chunk by chunk: how a pipe splits the shell's output is not in
 * the session's hands, so a report must be read whole wherever the chunks end.
 */
function scriptedShell() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  // A pid above Linux's largest (2^22): the session's exit hook may signal it, and it must reach no real process.
  const child = Object.assign(new EventEmitter(), {
    pid: 2 ** 22 + 7,
    stdin,
    stdout,
    stderr,
  }) as unknown as ChildProcess;
  let written = '';
  stdin.on('data', (chunk: Buffer) => {
    written += chunk.toString();
  });
  const sandbox = {
    kind: 'unsandboxed',
    spawn: async () => child,
    signal: () => undefined,
  } as unknown as Sandbox;
  /** The per-session marker, as the session's start-up script gave it to the shell. */
  const nonce = () => /printf '\\n([0-9a-f]+)</.exec(written)?.[1] ?? '';
  const report = (exitCode: number, dir: string) => `\n${nonce()}<${exitCode}\t\t\t${dir}>${nonce()}\n`;
  return { sandbox, stdout, report };
}

const session = (sandbox: Sandbox) =>
  new ShellSession({ shell: '/bin/bash', cwd: '/w', env: {}, keepChars: 1000, sandbox });

describe('ShellSession reports', () => {
  it('reads a report that arrives split across chunks, keeping the output before it', async () => {
    const shell = scriptedShell();
    const shellSession = session(shell.sandbox);
    const started = shellSession.start();
    await new Promise((resolve) => setImmediate(resolve));
    shell.stdout.write(shell.report(0, '/w'));
    expect((await started).workingDir).toBe('/w');
    shellSession.send('ls');
    const whole = `out${shell.report(3, '/w/sub dir')}`;
    const split = whole.indexOf('<') + 2;
    const done = shellSession.wait({});
    shell.stdout.write(whole.slice(0, split));
    await new Promise((resolve) => setImmediate(resolve));
    shell.stdout.write(whole.slice(split));
    expect(await done).toBe('completed');
    expect(shellSession.takeOutput().head).toBe('out');
    expect(shellSession.takeReport()).toEqual({ exitCode: 3, pid: -1, pythonPath: '', workingDir: '/w/sub dir' });
  });

  it('completes a wait at once when the report came in before it, until the report is taken', async () => {
    const shell = scriptedShell();
    const shellSession = session(shell.sandbox);
    const started = shellSession.start();
    await new Promise((resolve) => setImmediate(resolve));
    shell.stdout.write(shell.report(0, '/w'));
    await started;
    shellSession.send('true');
    shell.stdout.write(shell.report(0, '/w'));
    expect(await shellSession.wait({})).toBe('completed');
    expect(await shellSession.wait({})).toBe('completed');
  });
});

import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync, truncateSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const FIXTURE = fileURLToPath(
  new URL('../../../packages/events/test/__fixtures__/openhands/03_parallel_tool_calls', import.meta.url),
);
const home = tempDir();
const env = { X_HOME: home.path };
afterAll(() => home.remove());
let counter = 0;

/** A copy of a 10-event reference conversation; returns its directory and its event files by index. */
function conversation() {
  const dir = join(home.path, 'conversations', `damaged-${++counter}`);
  cpSync(FIXTURE, dir, { recursive: true });
  const events = readdirSync(join(dir, 'events'))
    .filter((name) => name.startsWith('event-'))
    .sort()
    .map((name) => join(dir, 'events', name));
  return { dir, events };
}

function fifoInsteadOf(path: string): void {
  unlinkSync(path);
  execFileSync('mkfifo', [path]);
}

describe('reading commands on a conversation with damaged files', () => {
  it('x events shows every readable event and names the corrupt one on stderr (exit 4)', async () => {
    const { dir, events } = conversation();
    truncateSync(events[3]!, 25);
    const result = await runCli(['events', dir], { env });
    expect(result.code).toBe(4);
    const indices = result.stdout
      .trim()
      .split('\n')
      .map((line) => Number(line.trim().split(/\s+/)[0]));
    expect(indices).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9]);
    expect(result.stderr).toContain(`event #3 ${events[3]}`);
    expect(result.stderr).toContain('corrupt_event');
    expect(result.stderr).toContain('1 of 10 events could not be read');

    const json = await runCli(['events', dir, '--json'], { env });
    expect(json.code).toBe(4);
    expect(json.stdout.trim().split('\n')).toHaveLength(9);
    expect(json.stderr).toContain(events[3]);
  });

  it('never blocks on a FIFO in place of an event file or base_state.json, in any reading command', async () => {
    const { dir, events } = conversation();
    fifoInsteadOf(events[5]!);
    fifoInsteadOf(join(dir, 'base_state.json'));
    for (const command of ['events', 'inspect', 'replay']) {
      const result = await runCli([command, dir], { env });
      expect(result.code, command).toBe(4);
      expect(result.stderr, command).toContain(`event #5 ${events[5]}`);
      expect(result.stderr, command).toContain('is a FIFO');
      expect(result.stderr, command).toContain(join(dir, 'base_state.json'));
    }
    const inspect = await runCli(['inspect', dir, '--json'], { env });
    expect(JSON.parse(inspect.stdout)).toMatchObject({
      event_count: 9,
      unreadable_events: [{ index: 5, location: events[5], code: 'not_regular_file' }],
    });
    // messages must be complete to be useful: it fails, naming the file.
    const messages = await runCli(['messages', dir], { env });
    expect(messages.code).toBe(1);
    expect(messages.stderr).toContain(events[5]);
    expect(messages.stdout).toBe('');

    const list = await runCli(['list', '--json'], { env });
    expect(list.code).toBe(4);
    expect(list.stderr).toContain(join(dir, 'base_state.json'));
    expect(list.stdout).toContain(`damaged-${counter}`);
  });

  it('reports a link where an event file should be without following it', async () => {
    const { dir, events } = conversation();
    unlinkSync(events[1]!);
    execFileSync('ln', ['-s', '/etc/passwd', events[1]!]);
    const result = await runCli(['events', dir, '--json'], { env });
    expect(result.code).toBe(4);
    expect(result.stdout).not.toContain('root:');
    expect(result.stderr).toContain('symbolic link');
  });

  it('exits 0 with nothing on stderr when every file is readable', async () => {
    const { dir } = conversation();
    rmSync(join(dir, 'events', '.eventlog.lock'), { force: true });
    for (const command of ['events', 'inspect', 'replay']) {
      const result = await runCli([command, dir], { env });
      expect(result.code, command).toBe(0);
      expect(result.stderr, command).toBe('');
    }
  });
});

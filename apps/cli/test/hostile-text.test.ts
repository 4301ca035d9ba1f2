import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const FIXTURE = fileURLToPath(
  new URL('../../../packages/events/test/__fixtures__/openhands/03_parallel_tool_calls', import.meta.url),
);
const home = tempDir();
// Colors forced on: the CLI's own escape sequences must survive while the conversation's are spelled out.
const env = { X_HOME: home.path, FORCE_COLOR: '1' };
afterAll(() => home.remove());

/** Terminal-driving text as a model, a tool's output or a web page could produce it. */
const SET_TITLE = '\u001b]0;owned\u0007';
const CLIPBOARD = '\u001b]52;c;cm0gLXJmIH4=\u0007';
const ERASE = '\u001b[2J\u001b[H';
const CONCEAL = '\u001b[8m';
const hostile = (label: string) =>
  `${label} ${SET_TITLE}${CLIPBOARD}${ERASE}${CONCEAL}hidden\rshown\b \u009b31m \u202eevil\u202c end`;

/**
 * A reference-written conversation whose message, actions, observation and state carry hostile text; `early`
 * stops before the finish action, so a comparison with the whole one has actions of its own to show.
 */
function hostileConversation(name: string, early = false): string {
  const dir = join(home.path, 'conversations', name);
  cpSync(FIXTURE, dir, { recursive: true });
  const files = readdirSync(join(dir, 'events'))
    .filter((file) => file.startsWith('event-'))
    .sort()
    .map((file) => join(dir, 'events', file));
  // biome-ignore lint/suspicious/noExplicitAny: editing fields deep inside event JSON
  const edit = (path: string, change: (json: Record<string, any>) => void) => {
    const json = JSON.parse(readFileSync(path, 'utf8'));
    change(json);
    writeFileSync(path, JSON.stringify(json));
  };
  edit(files[1]!, (event) => {
    event.llm_message.content[0].text = hostile('message');
  });
  edit(files[2]!, (event) => {
    event.thought[0].text = hostile('thought');
    event.action.thought = hostile('think');
    event.summary = hostile('summary');
    event.tool_call.arguments = JSON.stringify({ thought: hostile('argument'), summary: hostile('summary') });
  });
  edit(files[5]!, (event) => {
    event.observation.content[0].text = hostile('observation');
  });
  edit(files[8]!, (event) => {
    event.tool_name = hostile('tool');
    event.summary = hostile('finish');
    event.action.message = hostile('final');
  });
  if (early) for (const file of files.slice(8)) rmSync(file);
  edit(join(dir, 'base_state.json'), (state) => {
    state.workspace.working_dir = `/work${SET_TITLE}space`;
  });
  return dir;
}

/** Every escape sequence in the output is a color (SGR) one and none is the conversation's conceal. */
function expectTerminalSafe(text: string, command: string, colored: boolean): void {
  const afterEscapes = text.split('\u001b').slice(1);
  if (colored) expect(afterEscapes.length, `${command}: colors are kept`).toBeGreaterThan(0);
  for (const after of afterEscapes) expect(after, command).toMatch(/^\[[0-9;]*m/);
  expect(text, command).not.toContain(CONCEAL);
  for (const control of ['\r', '\u0007', '\b', '\u009b', '\u202e', '\u202c']) {
    expect(text, command).not.toContain(control);
  }
}

describe('text from a conversation cannot drive the terminal', () => {
  const dir = hostileConversation('hostile');
  const early = hostileConversation('hostile-early', true);

  it.each([['events', dir], ['replay', dir], ['inspect', dir], ['list']])(
    'x %s spells out control characters and keeps its colors',
    async (...args) => {
      const command = args[0];
      const result = await runCli(args, { env });
      expect(result.stderr, command).toBe('');
      expect(result.code, command).toBe(0);
      expectTerminalSafe(result.stdout + result.stderr, command, true);
    },
  );

  it('x compare (a directory named with a hyphen) spells out the actions and final message', async () => {
    const result = await runCli(['compare', dir, early], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expectTerminalSafe(result.stdout, 'compare', false);
    expect(result.stdout).toContain('tool \\x1b]0;owned');
  });

  it('shows what the text held, readably', async () => {
    const replay = await runCli(['replay', dir], { env });
    expect(replay.stdout).toContain('message \\x1b]0;owned\\x07\\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b[2J');
    expect(replay.stdout).toContain('\\x1b[8mhidden\\rshown\\b');
    expect(replay.stdout).toContain('\\x9b31m \\u202eevil\\u202c end');
    const events = await runCli(['events', dir], { env });
    expect(events.stdout).toContain('think: summary \\x1b]0;owned');
    expect(events.stdout).toContain('think: observation \\x1b]0;owned');
  });

  it('an error quoting what it was given spells it out too', async () => {
    const result = await runCli(['inspect', `missing${SET_TITLE}${ERASE}`], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("No conversation 'missing\\x1b]0;owned\\x07\\x1b[2J");
    expectTerminalSafe(result.stderr, 'inspect', true);
  });
});

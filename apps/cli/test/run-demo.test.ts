import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, hasEscapes, runCli, tempDir } from './helpers/run-cli.js';

const home = tempDir();
const env = { X_HOME: home.path };
let demo: CliResult;
let id: string;
let location: string;
let workspace: string;

beforeAll(async () => {
  demo = await runCli(['run', '--demo'], { env });
  id = /^Conversation ([0-9a-f-]{36})$/m.exec(demo.stdout)?.[1] ?? '';
  location = /saved in\s+(\S+)/.exec(demo.stdout)?.[1] ?? '';
  workspace = /workspace\s+(\S+)/.exec(demo.stdout)?.[1] ?? '';
});
afterAll(() => home.remove());

describe('x run --demo', () => {
  it('runs the demo task on the offline model, says so, and finishes', () => {
    expect(demo.code).toBe(0);
    expect(demo.stdout).toContain('built-in offline model');
    expect(demo.stdout).toContain('Create hello.txt containing a greeting, then show its contents');
    expect(demo.stdout).toContain('✔ Finished.');
    expect(hasEscapes(demo.stdout)).toBe(false);
  });

  it('shows the tool calls with their arguments and the observations', () => {
    expect(demo.stdout).toContain('file_editor — create hello.txt');
    expect(demo.stdout).toContain('$ cat hello.txt');
    expect(demo.stdout).toMatch(/↳ terminal exit 0 #\d+\n {2}│ Hello from the offline model!/);
    expect(demo.stdout).toMatch(/── 3 iterations · [\d,]+ tokens \([\d,]+ in, [\d,]+ out\) · \$0\.00 · /);
  });

  it('creates the file in a fresh temporary workspace it prints', () => {
    expect(workspace).toMatch(/x-demo-/);
    expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toBe('Hello from the offline model!\n');
  });

  it('persists the conversation under $X_HOME/conversations and prints where', () => {
    expect(location).toBe(join(home.path, 'conversations', id.replace(/-/g, '')));
    expect(existsSync(join(location, 'base_state.json'))).toBe(true);
    expect(readdirSync(join(location, 'events')).filter((name) => name.startsWith('event-')).length).toBeGreaterThan(5);
  });
});

describe('reading the demo conversation back', () => {
  it('replays it with the same view, by id, id prefix or path', async () => {
    for (const ref of [id, id.slice(0, 8), id.replace(/-/g, ''), location]) {
      const result = await runCli(['replay', ref], { env });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('$ cat hello.txt');
      expect(result.stdout).toContain('Status: finished · 3 iterations');
    }
  });

  it('replays up to an index, with the state as it was then', async () => {
    const events = await runCli(['events', id, '--kind', 'ActionEvent', '--json'], { env });
    const actions = events.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { tool_name: string });
    expect(actions.map((action) => action.tool_name)).toEqual(['file_editor', 'terminal', 'finish']);
    const list = await runCli(['events', id, '--kind', 'ActionEvent'], { env });
    const terminalIndex = Number(/^\s*(\d+) .*terminal: show hello.txt$/m.exec(list.stdout)?.[1]);

    const result = await runCli(['replay', id, '--until', String(terminalIndex)], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('$ cat hello.txt');
    expect(result.stdout).not.toContain('Hello from the offline model!\n  │ [The command completed');
    expect(result.stdout).toContain(`State at #${terminalIndex}: running · 2 iterations`);
    expect(result.stdout).toContain('Pending actions (1):');
    expect(result.stdout).toMatch(/later events not shown/);
  });

  it('inspects it as JSON', async () => {
    const result = await runCli(['inspect', id, '--json'], { env });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      id,
      status: 'finished',
      location,
      workspace,
      model: 'offline',
      written_by: 'x',
      iterations: 3,
      pending_actions: [],
      kinds: { SystemPromptEvent: 1, MessageEvent: 1, ActionEvent: 3, ObservationEvent: 3 },
      confirmation_policy: { kind: 'NeverConfirm' },
    });
    expect(report.event_count).toBe(
      Number(readdirSync(join(location, 'events')).filter((n) => n.startsWith('event-')).length),
    );
  });

  it('inspects it for people', async () => {
    const result = await runCli(['inspect', id.slice(0, 6)], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/status\s+finished/);
    expect(result.stdout).toMatch(/pending\s+none/);
  });

  it('lists events with kind, source and range filters', async () => {
    const all = await runCli(['events', id, '--json'], { env });
    const lines = all.stdout.trim().split('\n');
    const parsed = lines.map((line) => JSON.parse(line) as { kind: string; source: string; id: string });
    expect(parsed[0]?.kind).toBe('SystemPromptEvent');

    const observations = await runCli(['events', id, '-k', 'observationevent,MessageEvent', '--json'], { env });
    const kinds = observations.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { kind: string }).kind);
    expect(kinds).toEqual(['MessageEvent', 'ObservationEvent', 'ObservationEvent', 'ObservationEvent']);

    const user = await runCli(['events', id, '--source', 'user', '--json'], { env });
    expect(user.stdout.trim().split('\n')).toHaveLength(1);

    const range = await runCli(['events', id, '--from', '1', '--to', '3', '--json'], { env });
    expect(range.stdout.trim().split('\n')).toEqual(lines.slice(1, 4));

    const table = await runCli(['events', id, '--to', '1'], { env });
    expect(table.stdout).toMatch(/^0 {2}\d\d:\d\d:\d\d {2}SystemPromptEvent +agent +5 tools/m);
    expect(table.stdout).toMatch(/^1 .*MessageEvent +user +Create hello\.txt/m);
  });

  it.each([
    ['openai', (out: unknown) => (out as { role: string }[]).map((message) => message.role)],
    [
      'responses',
      (out: unknown) =>
        (out as { input: { type?: string; role?: string }[] }).input.map((item) => item.role ?? item.type),
    ],
    ['anthropic', (out: unknown) => (out as { messages: { role: string }[] }).messages.map((message) => message.role)],
  ])('prints the LLM messages in the %s format', async (format, roles) => {
    const result = await runCli(['messages', id, '--format', format], { env });
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as unknown;
    const expected = {
      openai: ['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool'],
      responses: [
        'user',
        'assistant',
        'function_call',
        'function_call_output',
        'assistant',
        'function_call',
        'function_call_output',
        'function_call',
        'function_call_output',
      ],
      anthropic: ['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user'],
    }[format];
    expect(roles(output)).toEqual(expected);
  });

  it("prints the terminal observation as the model saw it: output, then the reference's metadata lines", async () => {
    const result = await runCli(['messages', id], { env });
    const messages = JSON.parse(result.stdout) as { role: string; name?: string; content: { text?: string }[] }[];
    const terminal = messages.find((message) => message.role === 'tool' && message.name === 'terminal');
    const text = terminal?.content.map((part) => part.text ?? '').join('');
    expect(text).toContain('Hello from the offline model!');
    expect(text).toMatch(/\[Current working directory: .+\]/);
    expect(text).toContain('[Command finished with exit code 0]');
  });

  it('prints the messages up to an index', async () => {
    const result = await runCli(['messages', id, '--until', '1'], { env });
    expect((JSON.parse(result.stdout) as { role: string }[]).map((message) => message.role)).toEqual([
      'system',
      'user',
    ]);
  });

  it('lists it among the saved conversations', async () => {
    const result = await runCli(['list', '--json'], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout.trim())).toMatchObject({ id, status: 'finished', location });
  });

  it('colors only when asked, and never with NO_COLOR', async () => {
    const forced = await runCli(['replay', id], { env: { ...env, FORCE_COLOR: '1' } });
    expect(hasEscapes(forced.stdout)).toBe(true);
    const flag = await runCli(['replay', id, '--color'], { env });
    expect(hasEscapes(flag.stdout)).toBe(true);
    const noColor = await runCli(['replay', id], { env: { ...env, FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(hasEscapes(noColor.stdout)).toBe(false);
    const noColorFlag = await runCli(['--no-color', 'events', id], { env: { ...env, FORCE_COLOR: '1' } });
    expect(hasEscapes(noColorFlag.stdout)).toBe(false);
    expect(noColorFlag.stdout).toContain('SystemPromptEvent');
  });
});

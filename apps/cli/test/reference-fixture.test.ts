import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const FIXTURES = fileURLToPath(new URL('../../../packages/events/test/__fixtures__/openhands/', import.meta.url));
const home = tempDir();
const env = { X_HOME: home.path };
const data = join(home.path, 'copied');
const dir = join(data, '03_parallel_tool_calls');
const expected = JSON.parse(readFileSync(join(FIXTURES, '03_parallel_tool_calls', 'expected.json'), 'utf8')) as {
  conversation_id: string;
  event_count: number;
  kinds: string[];
  messages: { role: string; tool_call_id?: string }[];
};

/** Every file under `root` with its size and content hash: any write shows up as a difference. */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else files[full.slice(root.length)] = createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  walk(root);
  return files;
}

let before: Record<string, string>;
beforeAll(() => {
  for (const name of readdirSync(FIXTURES)) {
    if (statSync(join(FIXTURES, name)).isDirectory())
      cpSync(join(FIXTURES, name), join(data, name), { recursive: true });
  }
  before = snapshot(data);
});
afterAll(() => home.remove());

describe('conversation directories written by the Python reference', () => {
  it('inspects one: the status and stats come from its base_state.json', async () => {
    const result = await runCli(['inspect', dir, '--json'], { env });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      id: expected.conversation_id,
      status: 'finished',
      written_by: 'reference',
      event_count: expected.event_count,
      model: 'gpt-4o',
      workspace: '/workspace/project',
      kinds: { SystemPromptEvent: 1, MessageEvent: 1, ActionEvent: 4, ObservationEvent: 4 },
      pending_actions: [],
    });
    const stats = report.stats as {
      usage_to_metrics: { agent: { accumulated_cost: number; accumulated_token_usage: { prompt_tokens: number } } };
    };
    expect(stats.usage_to_metrics.agent.accumulated_cost).toBe(0.0102);
    expect(stats.usage_to_metrics.agent.accumulated_token_usage.prompt_tokens).toBe(3600);
  });

  it('finds one by its directory name under --data-dir', async () => {
    const result = await runCli(['events', '03_parallel_tool_calls', '--data-dir', data, '--json'], { env });
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { kind: string }).kind),
    ).toEqual(expected.kinds);
  });

  it('replays one', async () => {
    const result = await runCli(['replay', dir], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('written by the OpenHands Python SDK');
    expect(result.stdout).toContain('Status: finished');
    expect(result.stdout.match(/^✎ think — assess /gm)).toHaveLength(3);
    expect(result.stdout).toContain('✔ finish — recommend DuckDB');
    expect(result.stdout).toContain('3,720 tokens (3,600 in, 120 out) · $0.01');
  });

  it('gives the same LLM messages as the reference sent', async () => {
    const result = await runCli(['messages', dir], { env });
    const messages = JSON.parse(result.stdout) as { role: string; tool_call_id?: string }[];
    expect(messages.map((message) => [message.role, message.tool_call_id])).toEqual(
      expected.messages.map((message) => [message.role, message.tool_call_id]),
    );
  });

  it('applies a condensation in the messages of a condensed conversation', async () => {
    const condensed = join(data, '06_condensation_summary_offset');
    const reference = JSON.parse(readFileSync(join(condensed, 'expected.json'), 'utf8')) as { messages: unknown[] };
    const result = await runCli(['messages', condensed], { env });
    expect((JSON.parse(result.stdout) as unknown[]).length).toBe(reference.messages.length);
    const replay = await runCli(['replay', condensed], { env });
    expect(replay.stdout).toMatch(/⧉ Condensation forgot \d+ events?/);
  });

  it('never writes to the directories it reads', async () => {
    for (const name of readdirSync(data)) {
      for (const args of [['inspect'], ['replay'], ['events'], ['messages'], ['replay', '--until', '2']]) {
        const [command, ...rest] = args as [string, ...string[]];
        const result = await runCli([command, join(data, name), ...rest], { env });
        expect(result.code).toBe(0);
      }
    }
    expect(snapshot(data)).toEqual(before);
  }, 180_000);
});

describe('a branched conversation written as the reference writes one', () => {
  const BRANCHED = fileURLToPath(
    new URL('../../../packages/events/test/__fixtures__/branched/04_navigate_and_branch/', import.meta.url),
  );
  const branched = join(home.path, 'branched', '04_navigate_and_branch');

  it('lists the messages of the active branch only (HEAD from base_state.json)', async () => {
    cpSync(BRANCHED, branched, { recursive: true });
    const result = await runCli(['messages', branched], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('capital of Italy');
    expect(result.stdout).not.toContain('capital of France');
    // With --until, the branch that ends at that index (the first conversation).
    const early = await runCli(['messages', branched, '--until', '2'], { env });
    expect(early.stdout).toContain('capital of France');
    expect(early.stdout).not.toContain('Italy');
  });
});

describe('a long conversation written as the reference writes one (no slot claims)', () => {
  it('is read without writing anything to its directory (no name index, no packs)', async () => {
    const { createEvent, serializeEvent } = await import('@x/events');
    const { eventFileName } = await import('@x/store');
    const long = join(home.path, 'long-reference');
    const events = join(long, 'events');
    mkdirSync(events, { recursive: true });
    for (let index = 0; index < 1100; index++) {
      const source = index % 2 === 0 ? 'user' : 'agent';
      const event = createEvent('MessageEvent', {
        source,
        llm_message: { role: source === 'user' ? 'user' : 'assistant', content: [{ type: 'text', text: `m${index}` }] },
      });
      writeFileSync(join(events, eventFileName(index, event.id)), serializeEvent(event));
    }
    const untouched = snapshot(long);
    for (const args of [['inspect'], ['events'], ['messages'], ['replay']]) {
      const [command, ...rest] = args as [string, ...string[]];
      const result = await runCli([command, long, ...rest], { env });
      expect(result.code, result.stderr).toBe(0);
    }
    expect(snapshot(long)).toEqual(untouched);
    expect(existsSync(join(events, '.slots'))).toBe(false);
  }, 180_000);
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const home = tempDir();
afterAll(() => home.remove());
const env = { X_HOME: home.path };
const conversationsDir = join(home.path, 'conversations');

interface InspectReport {
  id: string;
  event_count: number;
  head: { id: string; index: number; branch_length: number } | null;
  branches: Array<{ leaf_event_id: string; index: number; active: boolean }>;
}

async function x(args: string[]): Promise<string> {
  const result = await runCli(args, { env, timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`x ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

async function inspect(id: string): Promise<InspectReport> {
  return JSON.parse(await x(['inspect', id, '--json', '--no-color'])) as InspectReport;
}

function recordedAgent(id: string): unknown {
  return (
    JSON.parse(readFileSync(join(conversationsDir, id.replace(/-/g, ''), 'base_state.json'), 'utf8')) as {
      agent: unknown;
    }
  ).agent;
}

describe('x fork and x navigate (real processes)', () => {
  let id: string;
  let events: Array<{ id: string; kind: string; source?: string }>;

  beforeAll(async () => {
    await x(['run', '--demo', '--no-color']);
    id = (JSON.parse((await x(['list', '--json'])).trim().split('\n')[0] ?? '{}') as { id: string }).id;
    events = (await x(['events', id, '--json']))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; kind: string; source?: string });
  }, 120_000);

  it('forks the branch up to an event (by index): the fork has that HEAD and fewer events', async () => {
    const firstUser = events.findIndex((event) => event.kind === 'MessageEvent' && event.source === 'user');
    expect(firstUser).toBeGreaterThanOrEqual(0);
    const before = await inspect(id);
    const agentBefore = recordedAgent(id);
    const fork = JSON.parse(await x(['fork', id, '--from', String(firstUser), '--title', 'Alt', '--json'])) as {
      id: string;
      from_event_id: string;
    };
    expect(fork.from_event_id).toBe(events[firstUser]?.id);
    const forked = await inspect(fork.id);
    expect(forked.head?.id).toBe(events[firstUser]?.id);
    expect(forked.event_count).toBeLessThan(before.event_count);
    // The source is unchanged, and the recorded agent of both is the source's.
    expect((await inspect(id)).event_count).toBe(before.event_count);
    expect(recordedAgent(id)).toEqual(agentBefore);
    expect(recordedAgent(fork.id)).toEqual(agentBefore);
  });

  it('navigates HEAD to an earlier event; a new message then shows as a second branch', async () => {
    const firstUser = events.findIndex((event) => event.kind === 'MessageEvent' && event.source === 'user');
    const target = events[firstUser]?.id as string;
    const output = await x(['navigate', id, target, '--no-color']);
    expect(output).toContain(target);
    const navigated = await inspect(id);
    expect(navigated.head?.id).toBe(target);
    expect(navigated.branches).toHaveLength(1);

    await x(['run', '--resume', id, 'a different question', '--no-color']);
    const branched = await inspect(id);
    expect(branched.branches).toHaveLength(2);
    expect(branched.branches.filter((branch) => branch.active)).toHaveLength(1);
    const text = await x(['inspect', id, '--no-color']);
    expect(text).toMatch(/branches\s+2/);
    expect(text).toMatch(/head\s+\S+/);
  });

  it('refuses an unknown event with exit code 3 and says what to do', async () => {
    const result = await runCli(['navigate', id, 'no-such-event', '--no-color'], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('no-such-event');
    expect(result.stderr).toContain('x events');
  });

  it('has --help with examples for fork and navigate', async () => {
    for (const command of ['fork', 'navigate']) {
      const result = await runCli([command, '--help'], { env });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Usage: x ${command}`);
      expect(result.stdout).toContain('Examples:');
    }
  });
});

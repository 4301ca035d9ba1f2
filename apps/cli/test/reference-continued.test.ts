import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

/**
 * A conversation x wrote (its checkpoint in base_state.json), which the reference then continued: it rewrote the
 * file's status, policy and stats and kept x's checkpoint as it found it. `inspect` and `replay` show the state a
 * resume takes (`changedSinceCheckpoint`), not x's stale checkpoint or a fold of the events alone.
 */
const home = tempDir();
afterAll(() => home.remove());
const env = { X_HOME: home.path };

async function x(args: string[]): Promise<string> {
  const result = await runCli(args, { env, timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`x ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

const referenceStats = {
  usage_to_metrics: {
    agent: {
      model_name: 'gpt-4o',
      accumulated_cost: 1.5,
      accumulated_token_usage: { model: 'gpt-4o', prompt_tokens: 4000, completion_tokens: 200 },
      costs: [{ model: 'gpt-4o', cost: 1.5, timestamp: 1.7e9 }],
    },
  },
};

describe('inspect and replay of a conversation the reference continued after x', () => {
  let id: string;
  beforeAll(async () => {
    await x(['run', '--demo', '--no-color']);
    id = (JSON.parse((await x(['list', '--json'])).trim().split('\n')[0] ?? '{}') as { id: string }).id;
    const file = join(home.path, 'conversations', id.replace(/-/g, ''), 'base_state.json');
    const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect((json.agent_state as { x_state?: unknown }).x_state).toBeDefined();
    // As x writes it for a conversation created with an iteration limit of 7 (no event records it), in both places.
    const agentState = json.agent_state as { x_state: Record<string, unknown> };
    agentState.x_state.max_iterations = 7;
    writeFileSync(
      file,
      JSON.stringify({
        ...json,
        max_iterations: 7,
        execution_status: 'paused',
        confirmation_policy: { kind: 'AlwaysConfirm' },
        stats: referenceStats,
      }),
    );
  }, 120_000);

  it('inspect shows the status, policy and stats the reference recorded', async () => {
    const report = JSON.parse(await x(['inspect', id, '--json'])) as {
      status: string;
      written_by: string;
      max_iterations: number;
      confirmation_policy: { kind: string };
      stats: typeof referenceStats;
    };
    expect(report.written_by).toBe('x');
    expect(report.status).toBe('paused');
    expect(report.confirmation_policy).toEqual({ kind: 'AlwaysConfirm' });
    expect(report.stats.usage_to_metrics.agent.accumulated_cost).toBe(1.5);
    expect(report.stats.usage_to_metrics.agent.accumulated_token_usage.prompt_tokens).toBe(4000);
    // Unchanged since the checkpoint: the checkpoint's, which the events alone do not give.
    expect(report.max_iterations).toBe(7);
  });

  it('replay ends on the same state', async () => {
    const output = await x(['replay', id, '--no-color']);
    expect(output).toContain('Status: paused');
    expect(output).toContain('confirmation AlwaysConfirm');
    expect(output).toContain('$1.50');
  });
});

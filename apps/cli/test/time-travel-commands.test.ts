import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const home = tempDir();
afterAll(() => home.remove());
const env = { X_HOME: home.path };

async function x(args: string[]): Promise<string> {
  const result = await runCli(args, { env, timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`x ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

describe('x run --checkpoints, x fork into another workspace, x compare (real processes)', () => {
  let id: string;
  let events: Array<{ id: string; kind: string; source?: string }>;
  let workspace: string;

  beforeAll(async () => {
    await x(['run', '--demo', '--checkpoints', '--no-color']);
    const listed = JSON.parse((await x(['list', '--json'])).trim().split('\n')[0] ?? '{}') as { id: string };
    id = listed.id;
    events = (await x(['events', id, '--json']))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; kind: string; source?: string });
    const base = JSON.parse(
      readFileSync(join(home.path, 'conversations', id.replace(/-/g, ''), 'base_state.json'), 'utf8'),
    ) as { workspace: { working_dir: string } };
    workspace = base.workspace.working_dir;
  }, 120_000);

  it('forks at the first message into an empty workspace, and compares the two', async () => {
    expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toContain('Hello');
    const firstUser = events.findIndex((event) => event.kind === 'MessageEvent' && event.source === 'user');
    const forkWorkspace = join(home.path, 'fork-ws');
    const fork = JSON.parse(
      await x(['fork', id, '--from', String(firstUser), '-w', forkWorkspace, '-m', 'other-model', '--json']),
    ) as { id: string; location: string };
    // Before the first step the demo workspace was empty: so is the fork's.
    expect(readdirSync(forkWorkspace)).toEqual([]);
    expect(JSON.parse(readFileSync(join(fork.location, 'x_fork_settings.json'), 'utf8'))).toEqual({
      model: 'other-model',
    });
    expect(existsSync(join(workspace, 'hello.txt'))).toBe(true);

    const comparison = JSON.parse(await x(['compare', id, fork.id, '--json'])) as {
      common_event_id: string;
      a: { files_changed: { added: string[] }; actions: Array<{ tool_name: string }> };
      b: { files_changed: { added: string[] }; actions: unknown[] };
      files_differing: string[];
    };
    expect(comparison.common_event_id).toBe(events[firstUser]?.id);
    expect(comparison.a.files_changed.added).toEqual(['hello.txt']);
    expect(comparison.a.actions.map((action) => action.tool_name)).toContain('file_editor');
    expect(comparison.b.actions).toEqual([]);
    expect(comparison.files_differing).toEqual(['hello.txt']);
    const table = await x(['compare', id, fork.id, '--no-color']);
    expect(table).toMatch(/files changed\s+\+1 ~0 -0\s+\+0 ~0 -0/);
  });

  it('runs a counterfactual fork on its model and tools (x_fork_settings.json)', async () => {
    const firstUser = events.findIndex((event) => event.kind === 'MessageEvent' && event.source === 'user');
    const fork = JSON.parse(
      await x(['fork', id, '--from', String(firstUser), '-m', 'other-model', '--tools', 'terminal', '--json']),
    ) as { id: string };
    const server = await startScriptedLLMServer([
      { toolCalls: [{ name: 'finish', arguments: { message: 'Done differently.' } }] },
    ]);
    try {
      const result = await runCli(['run', '--resume', fork.id, 'try it differently', '--no-color'], {
        env: { ...env, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseURL },
        timeoutMs: 60_000,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests[0]?.model).toBe('other-model');
      const offered = (server.requests[0]?.tools ?? []) as { function: { name: string } }[];
      const tools = offered.map((tool) => tool.function.name);
      expect(tools).toContain('terminal');
      expect(tools).not.toContain('file_editor');
    } finally {
      await server.close();
    }
  });

  it('names what is wrong: an unknown event, an unknown tool', async () => {
    const unknown = await runCli(['fork', id, '--from', 'no-such-event'], { env, timeoutMs: 60_000 });
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('no-such-event');
    const tool = await runCli(['fork', id, '--tools', 'terminal,hammer'], { env, timeoutMs: 60_000 });
    expect(tool.code).not.toBe(0);
    expect(tool.stderr).toContain('Unknown tool hammer');
  });
});

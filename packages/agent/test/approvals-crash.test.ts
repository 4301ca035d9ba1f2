import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation, readDecision } from '../src/index.js';
import { effectTool } from './support/approval-tools.js';
import { type Harness, startHarness } from './support/harness.js';

const childScript = fileURLToPath(new URL('./support/child-approval.ts', import.meta.url));
let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

/** Runs the child to its end or to the crash point; resolves with its output and how it ended. */
function runChild(
  id: string,
  crashPoint: string,
  env: Record<string, string> = {},
): Promise<{ output: string; signal: NodeJS.Signals | null }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', childScript, harness.server.baseURL, harness.persistenceDir, harness.workspace, id],
    {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, X_TEST_CRASH_POINT: crashPoint, X_LEASE_TTL_MS: '5000', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise((resolve) => child.once('exit', (_code, signal) => resolve({ output, signal })));
}

async function effects(): Promise<string[]> {
  try {
    return (await readFile(join(harness.workspace, 'effects.log'), 'utf8')).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Every point between the approval and the observation. Where the action surely had not started, the resumed run
 * runs it (exactly once); where it may have, the resumed run reports it as interrupted and does not run it again.
 */
const crashPoints: [point: string, effectsAfterResume: number][] = [
  ['after-decision-record', 1],
  ['before-status-running', 1],
  ['after-status-running', 0],
  ['before-tool-effect', 0],
  ['after-tool-effect', 1],
  ['after-observation', 1],
];

describe('an approved action runs at most once, its result recorded once, whatever point the process dies at', () => {
  it.each(crashPoints)(
    'SIGKILL at %s, then resume',
    async (point, effectsAfterResume) => {
      harness = await startHarness([
        { toolCalls: [{ name: 'record_effect', arguments: { label: 'approved' } }] },
        { content: 'Done.' },
        { content: 'Done.' },
      ]);
      const id = randomUUID();
      const { output, signal } = await runChild(id, point);
      expect(signal, output).toBe('SIGKILL');
      expect(output).toContain('WAITING waiting_for_confirmation');

      const resumed = await Conversation.resume(id, {
        agent: harness.agent({ tools: [effectTool] }),
        workspace: harness.workspace,
        persistenceDir: harness.persistenceDir,
        durability: 'none',
        leaseWaitMs: 60_000,
      });
      const actionEvents: AnyEvent[] = [];
      for await (const event of resumed.events()) if (event.kind === 'ActionEvent') actionEvents.push(event);
      const [action] = actionEvents;
      expect((await readDecision(resumed.store, resumed.directory, action!.id))?.principal).toBe('tester');
      await resumed.run();
      expect(resumed.state.execution_status).toBe('finished');

      const events: AnyEvent[] = [];
      for await (const event of resumed.events()) events.push(event);
      const answers = events.filter(
        (event) =>
          (event.kind === 'ObservationEvent' ||
            event.kind === 'AgentErrorEvent' ||
            event.kind === 'UserRejectObservation') &&
          event.tool_call_id === (action as { tool_call_id: string }).tool_call_id,
      );
      expect(answers).toHaveLength(1);
      expect(await effects()).toHaveLength(effectsAfterResume);
      await resumed.close();
    },
    180_000,
  );
});

describe('an approved edit is never lost', () => {
  it('SIGKILL after the original call is answered, before the edited call is in the log: the resumed run adds and runs it once', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'record_effect', arguments: { label: 'original' } }] },
      { content: 'Done.' },
      { content: 'Done.' },
    ]);
    const id = randomUUID();
    const { output, signal } = await runChild(id, 'after-decision-event', { X_TEST_EDIT_LABEL: 'edited' });
    expect(signal, output).toBe('SIGKILL');
    const resumed = await Conversation.resume(id, {
      agent: harness.agent({ tools: [effectTool] }),
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
      durability: 'none',
      leaseWaitMs: 60_000,
    });
    await resumed.run();
    expect(resumed.state.execution_status).toBe('finished');
    expect(await effects()).toEqual(['edited']);
    const events: AnyEvent[] = [];
    for await (const event of resumed.events()) events.push(event);
    const actions = events.filter((event) => event.kind === 'ActionEvent');
    expect(actions.map((event) => (event as { action?: { label?: string } }).action?.label)).toEqual([
      'original',
      'edited',
    ]);
    expect(events.filter((event) => event.kind === 'ObservationEvent')).toHaveLength(1);
    await resumed.close();
  }, 180_000);
});

import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

const childScript = fileURLToPath(new URL('./support/child-conversation.ts', import.meta.url));
let harness: Harness;
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await harness?.close();
});

function startChild(
  args: string[],
  env: Record<string, string> = {},
): { process: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let output = '';
  const process_ = spawn(process.execPath, ['--import', 'tsx', childScript, ...args], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  process_.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  process_.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => process_.once('exit', (code) => resolve(code)));
  child = process_;
  return { process: process_, output: () => output, exited };
}

/**
 * Each child is a fresh `node --import tsx` that compiles the whole package before it runs: on a loaded machine
 * that alone can take tens of seconds, so these tests get more than the default 30 s.
 */
const childTestTimeoutMs = 120_000;

async function waitFor(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function allEvents(conversation: Conversation): Promise<AnyEvent[]> {
  const events: AnyEvent[] = [];
  for await (const event of conversation.events()) events.push(event);
  return events;
}

describe('conversations across processes', () => {
  it(
    'resumes and continues after the process is killed (SIGKILL) in the middle of a run',
    async () => {
      harness = await startHarness([
        { toolCalls: [{ name: 'terminal', arguments: { command: 'echo first-step' } }] },
        // The child is killed while it waits for this reply.
        { hang: true },
        { toolCalls: [{ name: 'finish', arguments: { message: 'finished after resume' } }] },
      ]);
      const id = randomUUID();
      const run = startChild([
        harness.server.baseURL,
        harness.persistenceDir,
        harness.workspace,
        id,
        'create',
        'do it',
      ]);
      await waitFor(() => harness.server.requests.length >= 2, 'the second LLM request');
      run.process.kill('SIGKILL');
      await run.exited;

      const resumed = await Conversation.resume(id, {
        agent: harness.agent(),
        workspace: harness.workspace,
        persistenceDir: harness.persistenceDir,
      });
      const before = await allEvents(resumed);
      // Everything acknowledged before the kill is there: the user message, the action and its result.
      expect(before.map((event) => event.kind)).toEqual(
        expect.arrayContaining(['SystemPromptEvent', 'MessageEvent', 'ActionEvent', 'ObservationEvent']),
      );
      expect(resumed.state.execution_status).toBe('running');
      expect(resumed.state.event_count).toBe(before.length);

      const result = await resumed.run();
      expect(result.status).toBe('finished');
      const after = await allEvents(resumed);
      expect(after.slice(0, before.length).map((event) => event.id)).toEqual(before.map((event) => event.id));
      const finish = after.find((event) => event.kind === 'ObservationEvent' && event.tool_name === 'finish');
      expect(finish).toBeDefined();
    },
    childTestTimeoutMs,
  );

  it(
    'pauses in one process and continues in another',
    async () => {
      harness = await startHarness([
        { toolCalls: [{ name: 'think', arguments: { thought: 'one' } }] },
        { toolCalls: [{ name: 'finish', arguments: { message: 'done in the second process' } }] },
      ]);
      const id = randomUUID();
      const first = startChild(
        [harness.server.baseURL, harness.persistenceDir, harness.workspace, id, 'create', 'two steps'],
        { X_PAUSE_AFTER: 'ObservationEvent' },
      );
      expect(await first.exited).toBe(0);
      expect(first.output()).toContain('RESULT paused');

      const second = startChild([harness.server.baseURL, harness.persistenceDir, harness.workspace, id, 'resume']);
      expect(await second.exited).toBe(0);
      expect(second.output()).toContain('RESULT finished');
      expect(harness.server.requests).toHaveLength(2);
    },
    childTestTimeoutMs,
  );
});

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

// Two real processes resume the same conversation, as `x run --resume <id>` in two terminals does, with no
// `leases` option: ownership is on by default.
const childScript = fileURLToPath(new URL('./support/child-conversation.ts', import.meta.url));
let harness: Harness;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  // A gate a killed child's shell may still wait on.
  if (harness !== undefined) writeFileSync(join(harness.workspace, 'go'), '');
  await harness?.close();
});

interface Child {
  process: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startChild(id: string, env: Record<string, string> = {}): Child {
  let output = '';
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', childScript, harness.server.baseURL, harness.persistenceDir, harness.workspace, id, 'resume'],
    {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  children.push(child);
  return { process: child, output: () => output, exited };
}

/** Each child compiles the package with tsx first: tens of seconds on a loaded machine. */
const timeoutMs = 240_000;

async function waitFor(condition: () => boolean, what: string, limitMs = 180_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A step that records it ran, then waits until the test opens the gate (so its owner is known to be mid-run). */
const gatedStep = (name: string) => ({
  toolCalls: [
    {
      name: 'terminal',
      arguments: { command: `echo ${name} >> ran.txt; while [ ! -f go ]; do sleep 0.05; done`, timeout: 600 },
    },
  ],
});
const step = (name: string) => ({
  toolCalls: [{ name: 'terminal', arguments: { command: `echo ${name} >> ran.txt` } }],
});
const finish = { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] };

async function createConversation(): Promise<string> {
  const { conversation } = await harness.conversation();
  await conversation.sendMessage('run three steps');
  await conversation.close();
  return conversation.id;
}

const ran = () =>
  existsSync(join(harness.workspace, 'ran.txt')) ? readFileSync(join(harness.workspace, 'ran.txt'), 'utf8') : '';

describe('one owner per conversation by default, across processes', () => {
  it(
    'lets exactly one of two processes run; the other gets ConversationAlreadyRunningError naming the conversation and the holder',
    async () => {
      harness = await startHarness([gatedStep('step-1'), step('step-2'), finish]);
      const id = await createConversation();
      const [a, b] = [startChild(id), startChild(id)];
      // The loser is refused while the winner is held inside step 1 (it keeps renewing its lease meanwhile).
      await waitFor(() => /REFUSED/.test(a.output() + b.output()), 'one process to be refused');
      const [loser, winner] = /REFUSED/.test(a.output()) ? [a, b] : [b, a];
      expect(await loser.exited).toBe(3);
      writeFileSync(join(harness.workspace, 'go'), '');
      expect(await winner.exited).toBe(0);

      expect(winner.output()).toContain('RESULT finished');
      const refused = JSON.parse(/REFUSED conversation_running (.*)/.exec(loser.output())![1]!) as {
        id: string;
        owner: string;
      };
      expect(refused.id).toBe(id);
      expect(refused.owner).toContain(`:${winner.process.pid}:`);
      expect(loser.output()).toContain(`Conversation ${id} is already running in '${refused.owner}'`);
      // Every step ran once, by the winner: three model calls, each command once.
      expect(ran()).toBe('step-1\nstep-2\n');
      expect(harness.server.requests).toHaveLength(3);
    },
    timeoutMs,
  );

  it(
    'makes the second process wait with leaseWaitMs, then find the work done: each step runs once',
    async () => {
      harness = await startHarness([gatedStep('step-1'), step('step-2'), finish]);
      const id = await createConversation();
      const env = { X_LEASE_WAIT_MS: '600000' };
      const [a, b] = [startChild(id, env), startChild(id, env)];
      await waitFor(() => /RUNNING/.test(a.output()) && /RUNNING/.test(b.output()), 'both processes to run');
      await waitFor(() => harness.server.requests.length >= 1 && ran() !== '', 'the winner to start step 1');
      writeFileSync(join(harness.workspace, 'go'), '');
      expect(await a.exited).toBe(0);
      expect(await b.exited).toBe(0);
      expect(a.output()).toContain('RESULT finished');
      expect(b.output()).toContain('RESULT finished');
      expect(ran()).toBe('step-1\nstep-2\n');
      expect(harness.server.requests).toHaveLength(3);
    },
    timeoutMs,
  );

  it(
    'takes over from a killed owner once its lease expires, and continues the run',
    async () => {
      harness = await startHarness([
        step('step-1'),
        // The first owner is killed while it waits for this reply.
        { content: 'never delivered', delayMs: 600_000 },
        finish,
      ]);
      const id = await createConversation();
      // Long enough that a child starved of CPU on a loaded machine keeps its lease (the deadline is strict).
      const env = { X_LEASE_TTL_MS: '5000' };
      const first = startChild(id, env);
      await waitFor(() => harness.server.requests.length >= 2, 'the second model call');
      first.process.kill('SIGKILL');
      await first.exited;

      const second = startChild(id, env);
      expect(await second.exited).toBe(0);
      expect(second.output()).toContain('RESULT finished');
      expect(ran()).toBe('step-1\n');
      expect(harness.server.requests).toHaveLength(3);
      const resumed = await Conversation.resume(id, {
        agent: harness.agent(),
        workspace: harness.workspace,
        persistenceDir: harness.persistenceDir,
      });
      expect(resumed.state.execution_status).toBe('finished');
      await resumed.close();
    },
    timeoutMs,
  );
});

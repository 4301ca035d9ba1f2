import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  connectPostgres,
  createPostgresFileStore,
  type PostgresDatabase,
  PostgresEventLog,
  PostgresLeases,
} from '@x/store-postgres';
import {
  createTestDatabase,
  type PostgresServer,
  startPostgresServer,
  type TestDatabase,
} from '@x/store-postgres/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INTERRUPTED_ACTION_TEXT } from '../src/conversation/ownership/interrupted-action.js';
import { Conversation, ConversationAlreadyRunningError, type ConversationOptions } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

let server: PostgresServer;
let testDatabase: TestDatabase;
let harness: Harness;
beforeAll(async () => {
  server = await startPostgresServer();
  testDatabase = await createTestDatabase(server.url);
});
afterAll(async () => {
  await testDatabase?.drop();
  await server?.stop();
});
afterEach(async () => {
  await harness?.close();
});

/** What one replica passes to Conversation: its own pool, the shared tables. */
function replicaOptions(database: PostgresDatabase, owner: string): Partial<ConversationOptions> {
  return {
    store: createPostgresFileStore(database),
    openEventLog: ({ conversationId }) =>
      PostgresEventLog.open(database, { logId: conversationId, pollIntervalMs: 50 }),
    leases: new PostgresLeases(database, { owner, ttlMs: 2000 }),
  };
}

describe('a conversation on PostgreSQL, shared by two replicas', () => {
  it('is created on one replica, run by exactly one of the two, and read whole by the other', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'sleep 1; echo once >> ran.txt' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] },
    ]);
    const a = await connectPostgres({ url: testDatabase.url });
    const b = await connectPostgres({ url: testDatabase.url });
    try {
      const { conversation: onA } = await harness.conversation(replicaOptions(a, 'replica-a'));
      await onA.sendMessage('run once');
      const onB = await Conversation.resume(onA.id, {
        agent: harness.agent(),
        workspace: harness.workspace,
        ...replicaOptions(b, 'replica-b'),
      });
      expect(onB.state.event_count).toBe(onA.state.event_count);

      const runs = await Promise.allSettled([onA.run(), onB.run()]);
      const finished = runs.filter((run) => run.status === 'fulfilled');
      const refused = runs.filter((run) => run.status === 'rejected');
      expect(finished).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(ConversationAlreadyRunningError);
      expect(harness.server.requests).toHaveLength(2);

      const reader = await Conversation.resume(onA.id, {
        agent: harness.agent(),
        workspace: harness.workspace,
        ...replicaOptions(b, 'reader'),
      });
      expect(reader.state.execution_status).toBe('finished');
      const kinds: string[] = [];
      for await (const event of reader.events()) kinds.push(event.kind);
      expect(kinds.filter((kind) => kind === 'ActionEvent')).toHaveLength(2);
      expect(kinds.filter((kind) => kind === 'ObservationEvent')).toHaveLength(2);
      expect(await readFile(join(harness.workspace, 'ran.txt'), 'utf8')).toBe('once\n');
      const rows = await a.query<{ count: string }>('SELECT count(*) AS count FROM x_events WHERE log_id = $1', [
        onA.id,
      ]);
      expect(Number(rows[0]?.count)).toBe(reader.log.length);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

const childScript = fileURLToPath(new URL('./support/child-postgres-conversation.ts', import.meta.url));

/** Starts the conversation in a child process and SIGKILLs it while its terminal command runs; returns its id. */
async function killOwnerMidAction(): Promise<string> {
  const id = randomUUID();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', childScript, harness.server.baseURL, testDatabase.url, harness.workspace, id, 'do it'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  // Killed once its terminal command has started (the marker is written before the sleep).
  await new Promise<void>((resolve, reject) => {
    const poll = setInterval(() => {
      readFile(join(harness.workspace, 'marker.txt'), 'utf8').then(
        () => {
          clearInterval(poll);
          resolve();
        },
        () => undefined,
      );
    }, 25);
    void exited.then(() => {
      clearInterval(poll);
      reject(new Error(`child exited early: ${stderr}`));
    });
  });
  child.kill('SIGKILL');
  await exited;
  return id;
}

describe('recovery after the owner dies', () => {
  it('takes over a SIGKILLed owner’s run once its lease expires: the in-flight action is marked, not run again', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo started >> marker.txt; sleep 20' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'checked' } }] },
    ]);
    const id = await killOwnerMidAction();
    const database = await connectPostgres({ url: testDatabase.url });
    try {
      const survivor = await Conversation.resume(id, {
        agent: harness.agent(),
        workspace: harness.workspace,
        ...replicaOptions(database, 'survivor'),
        leaseWaitMs: 30_000,
      });
      expect(survivor.state.execution_status).toBe('running');
      expect((await survivor.run()).status).toBe('finished');
      const events = [];
      for await (const event of survivor.events()) events.push(event);
      const marked = events.filter((event) => event.kind === 'AgentErrorEvent');
      expect(marked).toHaveLength(1);
      expect(marked[0]).toMatchObject({ error: INTERRUPTED_ACTION_TEXT, tool_name: 'terminal' });
      expect(await readFile(join(harness.workspace, 'marker.txt'), 'utf8')).toBe('started\n');
      expect(JSON.stringify(harness.server.requests[1])).toContain('whether it had any effect is unknown');
      expect(harness.server.requests).toHaveLength(2);
    } finally {
      await database.close();
    }
  }, 120_000);

  it("with interruptedActions: 'confirm', leaves the in-flight action to a human instead of answering it", async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo started >> marker.txt; sleep 20' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'checked' } }] },
    ]);
    const id = await killOwnerMidAction();
    const database = await connectPostgres({ url: testDatabase.url });
    try {
      const survivor = await Conversation.resume(id, {
        agent: harness.agent(),
        workspace: harness.workspace,
        ...replicaOptions(database, 'survivor'),
        leaseWaitMs: 30_000,
        interruptedActions: 'confirm',
      });
      expect((await survivor.run()).status).toBe('waiting_for_confirmation');
      const [pending] = await survivor.pendingActions();
      expect(pending).toMatchObject({ tool_name: 'terminal' });
      expect(await readFile(join(harness.workspace, 'marker.txt'), 'utf8')).toBe('started\n');
      expect(harness.server.requests).toHaveLength(1);
      // The human checked the effect by hand and drops the action: it is not run again.
      await survivor.rejectPendingActions('checked by hand: it had run');
      expect(survivor.state.execution_status).toBe('idle');
      const events = [];
      for await (const event of survivor.events()) events.push(event);
      expect(events.filter((event) => event.kind === 'AgentErrorEvent')).toHaveLength(0);
      expect(events.filter((event) => event.kind === 'UserRejectObservation')).toHaveLength(1);
    } finally {
      await database.close();
    }
  }, 120_000);
});

describe('the database restarting mid-run', () => {
  it('pauses the run while PostgreSQL is down and finishes it after: nothing lost, nothing written twice', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo ran >> restart.txt; sleep 1' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'survived' } }] },
    ]);
    const database = await connectPostgres({ url: testDatabase.url });
    try {
      const { conversation } = await harness.conversation(replicaOptions(database, 'owner'));
      await conversation.sendMessage('survive a restart');
      const running = conversation.run();
      // The tool is running (its action is appended): every connection is cut now, and back 500 ms later.
      while (!(await readFile(join(harness.workspace, 'restart.txt'), 'utf8').catch(() => ''))) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await server.restart(() => new Promise((resolve) => setTimeout(resolve, 500)));
      expect((await running).status).toBe('finished');

      const reader = await Conversation.resume(conversation.id, {
        agent: harness.agent(),
        workspace: harness.workspace,
        ...replicaOptions(database, 'reader'),
      });
      const events = [];
      for await (const event of reader.events()) events.push(event);
      expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
      expect(events.filter((event) => event.kind === 'ObservationEvent')).toHaveLength(2);
      expect(reader.state.event_count).toBe(conversation.state.event_count);
      expect(await readFile(join(harness.workspace, 'restart.txt'), 'utf8')).toBe('ran\n');
      expect(harness.server.requests).toHaveLength(2);
      expect(await reader.log.verifyChain()).toMatchObject({ status: 'verified', length: events.length });
    } finally {
      await database.close();
    }
  }, 120_000);
});

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AnyEvent, createEvent } from '@x/events';
import { LeaseLostError } from '@x/store';
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
    // Long enough that no scheduling delay or database restart on a loaded machine lets a running owner's lease
    // lapse; the tests that need an expiry kill or stall an owner whose lease is short (the child's, A's below).
    leases: new PostgresLeases(database, { owner, ttlMs: 60_000 }),
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
        leaseWaitMs: 100_000,
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
        leaseWaitMs: 100_000,
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

/**
 * `database` with a pause switch: while paused, every query waits (the whole process stalled: a GC pause,
 * SIGSTOP), so the lease stops being renewed too; a query already decided on is sent when it resumes.
 */
function pausable(database: PostgresDatabase) {
  let paused: Promise<void> | undefined;
  let release: () => void = () => undefined;
  const wait = (): Promise<void> => paused ?? Promise.resolve();
  return {
    database: {
      ...database,
      query: (async (text: string, values?: unknown[]) => {
        await wait();
        return database.query(text, values);
      }) as PostgresDatabase['query'],
      transaction: (async (work) => {
        await wait();
        return database.transaction(work);
      }) as PostgresDatabase['transaction'],
    } satisfies PostgresDatabase,
    pause: () => {
      paused = new Promise((resolve) => {
        release = resolve;
      });
    },
    resume: () => {
      paused = undefined;
      release();
    },
  };
}

describe('fencing at the database', () => {
  it('refuses the append of an owner paused between its lease check and its insert, after another took over', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo ran >> fenced.txt' } }] },
    ]);
    const a = await connectPostgres({ url: testDatabase.url });
    const b = await connectPostgres({ url: testDatabase.url });
    const stall = pausable(a);
    let stalled: (event: AnyEvent) => void = () => undefined;
    const paused = new Promise<AnyEvent>((resolve) => {
      stalled = resolve;
    });
    /** Ids and indices of A's appends that committed. */
    const committedByA: { id: string; index: number }[] = [];
    try {
      const { conversation: onA } = await harness.conversation({
        store: createPostgresFileStore(a),
        // Long enough that A keeps its lease (its deadline is strict) on a loaded machine until the stall.
        leases: new PostgresLeases(stall.database, { owner: 'a', ttlMs: 3000 }),
        openEventLog: async ({ conversationId }) => {
          const log = await PostgresEventLog.open(stall.database, { logId: conversationId, pollIntervalMs: 50 });
          // A's process stalls right before it sends the insert of its tool's observation: whatever it
          // checked before (its lease, its index) it checked before the pause.
          return new Proxy(log, {
            get(target, property) {
              if (property === 'append') {
                return async (event: AnyEvent, options?: Parameters<PostgresEventLog['append']>[1]) => {
                  if (event.kind === 'ObservationEvent') {
                    stall.pause();
                    stalled(event);
                  }
                  const index = await target.append(event, options);
                  committedByA.push({ id: event.id, index });
                  return index;
                };
              }
              // A step's stats update and action are written as one batch.
              if (property === 'appendMany') {
                return async (events: AnyEvent[], options?: Parameters<PostgresEventLog['appendMany']>[1]) => {
                  const indices = await target.appendMany(events, options);
                  committedByA.push(...events.map((event, offset) => ({ id: event.id, index: indices[offset]! })));
                  return indices;
                };
              }
              const value = Reflect.get(target, property, target) as unknown;
              return typeof value === 'function' ? value.bind(target) : value;
            },
          });
        },
      });
      await onA.sendMessage('run it');
      const runOnA = onA.run().then(
        () => undefined,
        (error: unknown) => error,
      );
      const pausedEvent = await paused;

      // B takes the conversation's lease once A's (A renews nothing while paused) expired: B owns the run now.
      const takenByB = await new PostgresLeases(b, { owner: 'b', ttlMs: 60_000 }).acquire(onA.directory, {
        waitMs: 100_000,
      });
      expect(takenByB).toMatchObject({ previous: 'expired' });

      // A wakes up and sends the insert it had decided on (after its checks, at the free next index): the
      // database refuses it, because its transaction finds the lease at another generation.
      stall.resume();
      const failure = await runOnA;
      expect(failure).toBeDefined();
      const causes: unknown[] = [];
      for (let cause: unknown = failure; cause !== undefined; cause = (cause as { cause?: unknown }).cause) {
        causes.push(cause);
      }
      expect(causes.some((cause) => cause instanceof LeaseLostError)).toBe(true);

      // B appends under its lease (through the same fenced insert).
      const logOfB = await PostgresEventLog.open(b, { logId: onA.id });
      const takeoverAt = logOfB.length;
      const byB = createEvent('MessageEvent', {
        source: 'user',
        llm_message: { role: 'user', content: [{ type: 'text', text: 'B took over' }] },
      });
      expect(await logOfB.append(byB, { expectedIndex: takeoverAt, fence: takenByB })).toBe(takeoverAt);
      await takenByB.release();

      const rows = await b.query<{ idx: number; event_id: string }>(
        'SELECT idx, event_id FROM x_events WHERE log_id = $1 ORDER BY idx',
        [onA.id],
      );
      const ids = rows.map((row) => row.event_id);
      expect(ids).not.toContain(pausedEvent.id);
      // Nothing of A's after the takeover: A's committed appends, then B's event, then nothing.
      expect(ids.slice(takeoverAt)).toEqual([byB.id]);
      expect(committedByA.map(({ id }) => id)).toEqual(ids.slice(0, takeoverAt));
      expect(rows.map((row) => row.idx)).toEqual(rows.map((_, index) => index));
      expect(await readFile(join(harness.workspace, 'fenced.txt'), 'utf8')).toBe('ran\n');
      expect(harness.server.requests).toHaveLength(1);
    } finally {
      stall.resume();
      await a.close();
      await b.close();
    }
  }, 120_000);
});

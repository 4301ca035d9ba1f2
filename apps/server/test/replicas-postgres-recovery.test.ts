import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { connectPostgres, type PostgresDatabase } from '@x/store-postgres';
import {
  createTestDatabase,
  type PostgresServer,
  startPostgresServer,
  type TestDatabase,
} from '@x/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRequest,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  tempDir,
  waitFor,
} from './helpers.js';

type Info = Record<string, unknown>;

const serverRoot = fileURLToPath(new URL('..', import.meta.url));

let postgres: PostgresServer;
let database: TestDatabase;
let db: PostgresDatabase;
let llm: ScriptedLLMServer;
const dirs: string[] = [];

beforeAll(async () => {
  postgres = await startPostgresServer();
  database = await createTestDatabase(postgres.url);
  db = await database.connect();
  llm = await startScriptedLLMServer();
}, 120_000);
afterAll(async () => {
  await llm?.close();
  for (const dir of dirs) await removeDir(dir);
  await database?.drop();
  await postgres?.stop();
});

async function dir(): Promise<string> {
  const path = await tempDir();
  dirs.push(path);
  return path;
}

/** `x-server` as a child process on the shared database; resolves with its URL once it prints it. */
function startReplicaProcess(
  dataDir: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/bin.ts', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'],
    { cwd: serverRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /x-server listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('exit', (code) => reject(new Error(`x-server exited early (${code}): ${output}`)));
  });
}

/** Whether the conversation's `finish` was recorded, read from the table (no request to any replica). */
async function finishedInTable(id: string): Promise<boolean> {
  const rows = await db.query<{ body: string }>('SELECT body FROM x_events WHERE log_id = $1 ORDER BY idx', [id]);
  return rows.some((row) => {
    const event = JSON.parse(row.body) as { kind?: string; observation?: { kind?: string } };
    return event.kind === 'ObservationEvent' && event.observation?.kind === 'FinishObservation';
  });
}

describe('recovery sweep: replicas on one PostgreSQL', () => {
  it('finishes the run of a SIGKILLed replica on another, without any request: the in-flight action is marked, not re-run', async () => {
    const shared = await dir();
    const marker = join(shared, 'marker.txt');
    llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `echo started >> ${marker}; sleep 20` } }] },
      finishReply('recovered'),
    );
    const settings = { X_SERVER_DATABASE_URL: database.url, X_SERVER_LEASE_TTL_MS: '1000' };
    const { child, url } = await startReplicaProcess(await dir(), settings);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let survivor: TestServer | undefined;
    try {
      // Replica B runs its sweep every ~200 ms; it has never heard of the conversation.
      survivor = await startTestServer({
        dataDir: await dir(),
        llm,
        config: { databaseUrl: database.url, leaseTtlMs: 1000, recoveryIntervalMs: 200 },
      });
      const created = await fetch(`${url}/api/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(createRequest(llm, { initial_message: { content: 'do it' } })),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      await waitFor(async () => (await readFile(marker, 'utf8').catch(() => '')) !== '', 30_000);

      // A dies mid-action. Nobody asks anything of B: its sweep finds the expired lease and resumes the run.
      child.kill('SIGKILL');
      await exited;
      await waitFor(async () => await finishedInTable(id), 60_000);

      const events = (
        (await survivor.call('GET', `/api/conversations/${id}/events/search?limit=100`)).json as {
          items: Info[];
        }
      ).items;
      const marked = events.filter((event) => event.kind === 'AgentErrorEvent');
      expect(marked).toHaveLength(1);
      expect(marked[0]).toMatchObject({ tool_name: 'terminal' });
      expect(String(marked[0]?.error)).toContain('whether it had any effect is unknown');
      expect(events.filter((event) => event.kind === 'ObservationEvent')).toHaveLength(1);
      expect(await readFile(marker, 'utf8')).toBe('started\n');
      expect(llm.requests).toHaveLength(2);
      expect(JSON.stringify(llm.requests[1])).toContain('whether it had any effect is unknown');
      expect(((await survivor.call('GET', `/api/conversations/${id}`)).json as Info).execution_status).toBe('finished');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await survivor?.built.close();
    }
  }, 120_000);
});

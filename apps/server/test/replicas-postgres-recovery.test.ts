import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import type { PostgresDatabase } from '@x/store-postgres';
import {
  createTestDatabase,
  type PostgresServer,
  startPostgresServer,
  type TestDatabase,
} from '@x/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createConversation,
  createRequest,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  tempDir,
  waitFor,
} from './helpers.js';

type Info = Record<string, unknown>;
type Page = { items: Info[]; next_page_id: string | null };

async function info(server: TestServer, id: string): Promise<Info> {
  return (await server.call('GET', `/api/conversations/${id}`)).json as Info;
}

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
}, 180_000);
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
    // One workspace root for both replicas, holding the conversation's working directory (and the marker).
    // A's lease must outlive any scheduling delay of a loaded machine while A is alive (the sweep would take
    // over a live owner otherwise), yet expire soon after A is killed: 5 s, and the waits below allow a minute.
    const settings = {
      X_SERVER_DATABASE_URL: database.url,
      X_SERVER_LEASE_TTL_MS: '5000',
      X_SERVER_WORKSPACE_ROOT: shared,
    };
    const { child, url } = await startReplicaProcess(await dir(), settings);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let survivor: TestServer | undefined;
    try {
      // Replica B runs its sweep every ~200 ms; it has never heard of the conversation.
      survivor = await startTestServer({
        dataDir: await dir(),
        llm,
        config: { databaseUrl: database.url, leaseTtlMs: 5000, recoveryIntervalMs: 200, workspaceRoot: shared },
      });
      const created = await fetch(`${url}/api/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        // The marker is written in the conversation's workspace: its sandbox lets nothing else be written.
        body: JSON.stringify(
          createRequest(llm, { workspace: { working_dir: shared }, initial_message: { content: 'do it' } }),
        ),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      await waitFor(async () => (await readFile(marker, 'utf8').catch(() => '')) !== '', 60_000);

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
  }, 180_000);
});

describe('listing on replicas: the SQL index', () => {
  it('searches, filters, pages and counts with the conversations table, opening only the page it returns', async () => {
    const own = await createTestDatabase(postgres.url);
    const servers: TestServer[] = [];
    try {
      const writer = await startTestServer({ dataDir: await dir(), llm, config: { databaseUrl: own.url } });
      servers.push(writer);
      llm.push(finishReply('done'));
      const ids: string[] = [];
      ids.push(await createConversation(writer, { title: 'first, finished', initial_message: { content: 'go' } }));
      await waitFor(async () => (await info(writer, ids[0]!)).execution_status === 'finished');
      // The run's end is recorded in meta.json, and so in the index, just after the run ends.
      await waitFor(async () => (await writer.call('GET', '/api/conversations/count?status=finished')).json === 1);
      for (const title of ['second', 'third', 'fourth', 'fifth']) ids.push(await createConversation(writer, { title }));
      // The third is updated last.
      const sent = await writer.call('POST', `/api/conversations/${ids[2]}/events`, {
        content: [{ type: 'text', text: 'a note' }],
        run: false,
      });
      expect(sent.status).toBeLessThan(300);

      // A replica started afterwards has opened nothing.
      const reader = await startTestServer({ dataDir: await dir(), llm, config: { databaseUrl: own.url } });
      servers.push(reader);
      // Every read of the reader's store is recorded: which conversations did the listing look into?
      const store = reader.built.manager.store;
      const touched = new Set<string>();
      for (const method of ['read', 'exists', 'list'] as const) {
        const original = store[method].bind(store) as (path: string) => Promise<never>;
        (store as unknown as Record<string, unknown>)[method] = (path: string) => {
          const hex = /^([0-9a-f]{32})\//.exec(path)?.[1];
          if (hex !== undefined) touched.add(hex);
          return original(path);
        };
      }
      const hexOf = (id: string) => id.replace(/-/g, '');
      const first = (await reader.call('GET', '/api/conversations/search?limit=2&sort_order=CREATED_AT')).json as Page;
      expect(first.items.map((item) => item.id)).toEqual(ids.slice(0, 2));
      expect(first.next_page_id).toBe(hexOf(ids[2]!));
      expect([...touched].sort()).toEqual(ids.slice(0, 2).map(hexOf).sort());
      touched.clear();
      expect((await reader.call('GET', '/api/conversations/count?status=idle')).json).toBe(4);
      expect([...touched]).toEqual([]);

      // The q filter (title or id, any case) is answered by the index too, without opening the others.
      touched.clear();
      const byTitle = (await reader.call('GET', '/api/conversations/search?q=FOUR')).json as Page;
      expect(byTitle.items.map((item) => item.id)).toEqual([ids[3]]);
      expect([...touched]).toEqual([hexOf(ids[3]!)]);
      const idPart = ids[1]!.slice(6, 16); // spans the first hyphen of the UUID form
      const byId = (await reader.call('GET', `/api/conversations/search?q=${idPart.toUpperCase()}`)).json as Page;
      expect(byId.items.map((item) => item.id)).toEqual([ids[1]]);
      expect((await reader.call('GET', `/api/conversations/count?q=${hexOf(ids[2]!).slice(4, 20)}`)).json).toBe(1);
      expect((await reader.call('GET', '/api/conversations/count?q=no-such-title&status=idle')).json).toBe(0);

      const paged: unknown[] = [];
      let pageId: string | null = null;
      do {
        const page: Page = (
          await reader.call(
            'GET',
            `/api/conversations/search?limit=2&sort_order=CREATED_AT_DESC${pageId === null ? '' : `&page_id=${pageId}`}`,
          )
        ).json as Page;
        paged.push(...page.items.map((item) => item.id));
        pageId = page.next_page_id;
      } while (pageId !== null);
      expect(paged).toEqual([...ids].reverse());

      const finished = (await reader.call('GET', '/api/conversations/search?status=finished')).json as Page;
      expect(finished.items.map((item) => [item.id, item.title, item.execution_status])).toEqual([
        [ids[0], 'first, finished', 'finished'],
      ]);
      const updated = (await reader.call('GET', '/api/conversations/search?limit=1&sort_order=UPDATED_AT_DESC'))
        .json as Page;
      expect(updated.items.map((item) => item.id)).toEqual([ids[2]]);
      expect((await reader.call('GET', '/api/conversations/count')).json).toBe(5);
      expect((await reader.call('GET', '/api/conversations/count?status=idle')).json).toBe(4);

      // A deleted conversation leaves the index with its files.
      expect((await writer.call('DELETE', `/api/conversations/${ids[4]}`)).status).toBe(200);
      expect((await reader.call('GET', '/api/conversations/count')).json).toBe(4);
    } finally {
      for (const server of servers) await server.built.close();
      await own.drop();
    }
  }, 180_000);
});

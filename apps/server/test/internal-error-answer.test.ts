import { homedir } from 'node:os';
import { join } from 'node:path';
import { createLocalFileStore, type FileStore } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer, tempDir } from './helpers.js';

// A 500's `exception` (the reference's `str(exc)`) as a client reads it, from a real request whose failure names the
// server's files and quotes secrets: the store's write of meta.json fails the way a disk or a library might.

const SESSION_KEY = 'session-key-for-the-500-test';
const CONVERSATION_SECRET = 'conversation-secret-value-9f3a';

/** Thrown by the store: a class of its own that does not set `name` (as many libraries' errors do not). */
class StoreWriteError extends Error {}

/** A local store whose writes of meta.json fail, once `fail` is set, with an error naming `message(path)`. */
function failingMetaWrites(
  store: FileStore,
  root: string,
): { store: FileStore; fail(message: (path: string) => string): void } {
  let failure: ((path: string) => string) | undefined;
  const failing = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property === 'write') {
        return async (path: string, data: string | Uint8Array) => {
          if (failure !== undefined && path.endsWith('meta.json')) throw new StoreWriteError(failure(join(root, path)));
          return target.write(path, data);
        };
      }
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    store: failing,
    fail(message) {
      failure = message;
    },
  };
}

let server: TestServer | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  await server?.stop();
  if (dataDir !== undefined) await removeDir(dataDir);
  server = undefined;
  dataDir = undefined;
});

describe('the 500 answer of an unexpected failure', () => {
  it('names the error class and hides server paths and secret values; the workspace path and the log keep theirs', async () => {
    dataDir = await tempDir();
    const root = join(dataDir, 'conversations');
    const store = failingMetaWrites(createLocalFileStore({ root }), root);
    const logged: string[] = [];
    server = await startTestServer({
      dataDir,
      config: { apiKeys: [SESSION_KEY], logLevel: 'error' },
      build: { store: store.store, logStream: { write: (line: string) => void logged.push(line) } },
    });
    const headers = { 'X-Session-API-Key': SESSION_KEY };
    const created = await server.call('POST', '/api/conversations', createRequestFor(server), headers);
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    const secrets = await server.call(
      'POST',
      `/api/conversations/${id}/secrets`,
      { secrets: { DEPLOY_TOKEN: CONVERSATION_SECRET } },
      headers,
    );
    expect(secrets.status).toBe(200);
    const workspace = join(dataDir, 'workspaces', 'project', 'a.txt');
    store.fail(
      (path) =>
        `EIO: i/o error, write '${path}' (key ${SESSION_KEY}, token ${CONVERSATION_SECRET}) ` +
        `seen from ${join(homedir(), '.config', 'x')} while editing ${workspace}`,
    );

    const answer = await server.call('PATCH', `/api/conversations/${id}`, { title: 'renamed' }, headers);

    expect(answer.status).toBe(500);
    const body = answer.json as { detail: string; exception: string; error_id: string };
    expect(body.detail).toBe('Internal Server Error');
    expect(body.exception).toBe(
      "StoreWriteError: EIO: i/o error, write '<server path>' (key <secret-hidden>, token <secret-hidden>) " +
        `seen from <server path> while editing ${workspace}`,
    );
    // The server's log keeps the whole error under the same id.
    const line = logged.find((text) => text.includes(body.error_id));
    expect(line).toBeDefined();
    expect(line).toContain(join(root, id.replaceAll('-', ''), 'meta.json'));
  });
});

function createRequestFor(server: TestServer): Record<string, unknown> {
  return {
    agent: { llm: { model: 'gpt-test', base_url: server.llm.baseURL, api_key: 'sk-test-secret' }, tools: [] },
  };
}

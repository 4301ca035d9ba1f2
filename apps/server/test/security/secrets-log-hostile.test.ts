import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltServer, buildServer } from '../../src/index.js';
import { removeDir, tempDir, waitFor } from '../helpers.js';

const API_KEY = 'sk-server-hostile-API-KEY-42424242';
const SECRET = 'ghp_serverSideSecret_0123456789';
const lines: string[] = [];
let built: BuiltServer;
let url: string;
let dataDir: string;
let llm: Awaited<ReturnType<typeof startScriptedLLMServer>>;

beforeAll(async () => {
  dataDir = await tempDir();
  llm = await startScriptedLLMServer();
  built = await buildServer(
    { port: 0, dataDir, logLevel: 'trace' },
    { logStream: { write: (message: string) => void lines.push(message) } },
  );
  ({ url } = await built.listen());
});

afterAll(async () => {
  await built.close();
  await llm.close();
  await removeDir(dataDir);
});

async function allFiles(dir: string): Promise<string> {
  let text = '';
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) text += await readFile(join(entry.parentPath, entry.name), 'utf8').catch(() => '');
  }
  return text;
}

function spellings(value: string): string[] {
  return [value, Buffer.from(value).toString('base64'), encodeURIComponent(value), Buffer.from(value).toString('hex')];
}

describe('secrets of a failing run on the server', () => {
  it('reach neither the log (trace level), nor the data directory, nor the events API', async () => {
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, text: await response.text() };
    };
    const created = await call('POST', '/api/conversations', {
      agent: { llm: { model: 'gpt-test', base_url: llm.baseURL, api_key: API_KEY, num_retries: 0 } },
      secrets: { GITHUB_TOKEN: SECRET },
    });
    expect(created.status).toBe(201);
    const id = (JSON.parse(created.text) as { id: string }).id;
    const echo = `Invalid request for key ${spellings(API_KEY).join(' ')} and content ${spellings(SECRET).join(' ')}`;
    llm.push({ error: { status: 400, message: echo } });
    await call('POST', `/api/conversations/${id}/events`, { content: [{ type: 'text', text: 'go' }], run: true });
    await waitFor(async () => {
      const info = await call('GET', `/api/conversations/${id}`);
      return (JSON.parse(info.text) as { execution_status?: string }).execution_status === 'error';
    });
    await waitFor(async () => lines.join('').includes('run failed'));
    const events = await call('GET', `/api/conversations/${id}/events/search?limit=100`);
    expect(events.text).toContain('<secret-hidden>');
    const places = { log: lines.join(''), files: await allFiles(dataDir), events: events.text };
    const leaks = Object.entries(places).flatMap(([place, text]) =>
      [API_KEY, SECRET].flatMap((value) =>
        spellings(value)
          .filter((spelled) => text.includes(spelled))
          .map(
            (spelled) =>
              `${place}: ${spelled} …${text.slice(Math.max(0, text.indexOf(spelled) - 150), text.indexOf(spelled))}`,
          ),
      ),
    );
    expect(leaks).toEqual([]);
  });
});

// `x mcp` tells its clients when the data directory's conversations change (`notifications/resources/list_changed`),
// whoever made or removed them: judged by the SDK's own Client over a stdio transport that spawns the built `x mcp`.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, tempDir } from './helpers/run-cli.js';

const home = tempDir();
const otherHome = tempDir();
const workspace = tempDir();
afterAll(() => {
  home.remove();
  otherHome.remove();
  workspace.remove();
});

/** The client, and a way to wait for the next list change after the ones already counted. */
async function connect(xHome: string): Promise<{
  client: Client;
  changes: () => number;
  nextChange: (after: number) => Promise<void>;
}> {
  const env = { X_HOME: xHome, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', X_MODEL: 'm' };
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '-w', workspace.path],
    env: cleanEnv(env) as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'x-cli-mcp-list-changed-test', version: '1.0.0' });
  let count = 0;
  let waiters: Array<() => void> = [];
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    count += 1;
    const ready = waiters;
    waiters = [];
    for (const wake of ready) wake();
  });
  await client.connect(transport);
  const nextChange = async (after: number): Promise<void> => {
    while (count <= after) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { client, changes: () => count, nextChange };
}

const uris = async (client: Client): Promise<string[]> => (await client.listResources()).resources.map((r) => r.uri);

describe('x mcp: resource list changes over stdio', () => {
  it('declares them, and notifies conversations it makes and ones other processes make or remove', async () => {
    const { client, changes, nextChange } = await connect(home.path);
    try {
      expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true, listChanged: true });

      // Made through this session: heard, and listed by the time the notification arrives.
      let seen = changes();
      const started = (await client.callTool({ name: 'start_conversation', arguments: {} })) as CallToolResult;
      const id = (started.structuredContent as { conversation_id: string }).conversation_id;
      await nextChange(seen);
      expect(await uris(client)).toContain(`x://conversations/${id}`);

      // Made by another process: its directory first, then its first file (the notification waits for the file).
      const dataDir = join(home.path, 'conversations');
      const other = 'abcdef0123456789abcdef0123456789';
      const otherUri = 'x://conversations/abcdef01-2345-6789-abcd-ef0123456789';
      seen = changes();
      mkdirSync(join(dataDir, other));
      writeFileSync(join(dataDir, other, 'base_state.json'), '{"execution_status":"idle"}');
      await nextChange(seen);
      expect(await uris(client)).toContain(otherUri);

      // Removed by another process.
      seen = changes();
      rmSync(join(dataDir, other), { recursive: true });
      await nextChange(seen);
      expect(await uris(client)).not.toContain(otherUri);
      expect(await uris(client)).toContain(`x://conversations/${id}`);
    } finally {
      await client.close();
    }
  });

  it('watches a data directory that already holds conversations from the start', async () => {
    const dataDir = join(otherHome.path, 'conversations');
    const existing = '0123456789abcdef0123456789abcdef';
    mkdirSync(join(dataDir, existing), { recursive: true });
    writeFileSync(join(dataDir, existing, 'base_state.json'), '{"execution_status":"finished"}');
    const { client, changes, nextChange } = await connect(otherHome.path);
    try {
      expect(await uris(client)).toContain('x://conversations/01234567-89ab-cdef-0123-456789abcdef');
      // Nothing made through this session: only the watch begun at start-up can hear this one.
      const seen = changes();
      const other = 'fedcba9876543210fedcba9876543210';
      mkdirSync(join(dataDir, other));
      writeFileSync(join(dataDir, other, 'base_state.json'), '{"execution_status":"idle"}');
      await nextChange(seen);
      expect(await uris(client)).toContain('x://conversations/fedcba98-7654-3210-fedc-ba9876543210');
    } finally {
      await client.close();
    }
  });
});

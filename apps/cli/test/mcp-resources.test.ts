// `x mcp`'s resources, judged by the SDK's own Client over a stdio transport that spawns the built `x mcp`, on the
// scripted OpenAI-protocol model on 127.0.0.1: templates, listing, the state and the log's pages, typed errors,
// and a subscription that hears the log grow during a run.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  ResourceUpdatedNotificationSchema,
  type TextResourceContents,
} from '@modelcontextprotocol/sdk/types.js';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, tempDir } from './helpers/run-cli.js';

const home = tempDir();
const workspace = tempDir();
let llm: ScriptedLLMServer;
const CALL = { timeout: 120_000, resetTimeoutOnProgress: true };

beforeAll(async () => {
  llm = await startScriptedLLMServer();
});
afterAll(async () => {
  await llm.close();
  home.remove();
  workspace.remove();
});

async function connect(): Promise<Client> {
  const env = { X_HOME: home.path, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: llm.baseURL, X_MODEL: 'scripted-model' };
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '-w', workspace.path],
    env: cleanEnv(env) as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'x-cli-mcp-resources-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function readJson(client: Client, uri: string): Promise<Record<string, unknown>> {
  const { contents } = await client.readResource({ uri });
  return JSON.parse((contents[0] as TextResourceContents).text) as Record<string, unknown>;
}

describe('x mcp resources over stdio, driven by the SDK Client', () => {
  it('lists, reads and watches conversations of the data dir as resources', async () => {
    const client = await connect();
    try {
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
        'x://conversations/{conversation_id}',
        'x://conversations/{conversation_id}/events{?start,limit}',
      ]);
      const started = (await client.callTool({ name: 'start_conversation', arguments: {} })) as CallToolResult;
      const id = (started.structuredContent as { conversation_id: string }).conversation_id;
      const uri = `x://conversations/${id}`;
      const updated: string[] = [];
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
        updated.push(notification.params.uri);
      });
      await client.subscribeResource({ uri });

      llm.push(
        { toolCalls: [{ name: 'terminal', arguments: { command: 'echo watched' } }] },
        { toolCalls: [{ name: 'finish', arguments: { message: 'Watched it.' } }] },
      );
      await client.callTool({ name: 'run', arguments: { conversation_id: id, message: 'Go' } }, undefined, CALL);
      // The notification may trail the run's result: a round trip at a time until it is there.
      while (!updated.includes(uri)) await client.ping();

      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).toEqual(
        expect.arrayContaining([uri, `${uri}/events?start=0&limit=100`]),
      );
      const state = await readJson(client, uri);
      expect(state).toMatchObject({ id, execution_status: 'finished', workspace: { working_dir: workspace.path } });
      expect(state).not.toHaveProperty('secret_registry');
      const first = await readJson(client, `${uri}/events?limit=3`);
      expect(first.items).toHaveLength(3);
      expect(first.next_page_id).toBe('3');
      const rest = await readJson(client, `${uri}/events?start=3&limit=1000`);
      const kinds = [...(first.items as { kind: string }[]), ...(rest.items as { kind: string }[])].map(
        (event) => event.kind,
      );
      expect(kinds).toContain('ActionEvent');
      expect(kinds).toContain('ObservationEvent');
      expect(rest.next_page_id).toBeNull();

      await expect(client.readResource({ uri: 'x://conversations/a/b' })).rejects.toMatchObject({
        code: -32602,
        data: { reason: 'invalid_resource_uri' },
      });
      // URL syntax resolves the dots: an id of no valid form, nothing opened.
      await expect(client.readResource({ uri: 'x://conversations/../../etc' })).rejects.toMatchObject({
        code: -32002,
        data: { conversation_id: 'etc' },
      });
      await expect(
        client.readResource({ uri: 'x://conversations/0b3a5a8e-7a61-4c1e-9a55-3f4a1f0e2b7c' }),
      ).rejects.toMatchObject({ code: -32002, data: { reason: 'resource_not_found' } });
    } finally {
      await client.close();
    }
  });

  it('notifies a subscribed conversation once its directory is deleted, and reading it again says it is gone', async () => {
    const client = await connect();
    try {
      const started = (await client.callTool({ name: 'start_conversation', arguments: {} })) as CallToolResult;
      const id = (started.structuredContent as { conversation_id: string }).conversation_id;
      const uri = `x://conversations/${id}`;
      const updated: string[] = [];
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
        updated.push(notification.params.uri);
      });
      await client.subscribeResource({ uri });
      // Deleted by another process (`x rm`, a hand's rm): the data directory loses the conversation's directory.
      rmSync(join(home.path, 'conversations', id.replace(/-/g, '')), { recursive: true, force: true });
      while (!updated.includes(uri)) await client.ping();
      await expect(client.readResource({ uri })).rejects.toThrow();
    } finally {
      await client.close();
    }
  });
});

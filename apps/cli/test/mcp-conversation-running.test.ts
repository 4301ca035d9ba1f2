// `x mcp` asked about a conversation another process is running, judged by the SDK's Client over stdio against two
// built `x mcp` processes sharing a data dir, on the scripted OpenAI-protocol model on 127.0.0.1: the second reads it,
// and its `run` is refused with a tool execution error the model can read (`isError`, `structuredContent.reason:
// conversation_running`), not a view of a run it did not follow; the run of the first goes on to its answer.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, tempDir } from './helpers/run-cli.js';

const home = tempDir();
const workspace = tempDir();
let llm: ScriptedLLMServer;

/** Long enough for a loaded machine. */
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
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '-w', workspace.path],
    env: cleanEnv({
      X_HOME: home.path,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: llm.baseURL,
      X_MODEL: 'scripted-model',
    }) as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'x-cli-mcp-running-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('x mcp and a conversation another process runs', () => {
  it('refuses run with a tool error naming conversation_running; the first process still answers', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    llm.push({ toolCalls: [{ name: 'finish', arguments: { message: 'Ran alone.' } }], gate });
    const [first, second] = [await connect(), await connect()];
    try {
      const started = await first.callTool({ name: 'start_conversation', arguments: { message: 'Go' } });
      const id = (started.structuredContent as { conversation_id: string }).conversation_id;
      const asked = llm.requests.length;
      const run = first.callTool({ name: 'run', arguments: { conversation_id: id } }, undefined, CALL);
      // The first process is inside its model call, holding the conversation.
      await expect.poll(() => llm.requests.length, { timeout: 60_000 }).toBeGreaterThan(asked);
      // Reading it is fine; running it is the other process's.
      const read = (await second.callTool({
        name: 'get_conversation',
        arguments: { conversation_id: id },
      })) as CallToolResult;
      expect(read.isError).toBeFalsy();
      const refused = (await second.callTool(
        { name: 'run', arguments: { conversation_id: id } },
        undefined,
        CALL,
      )) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toEqual({ reason: 'conversation_running', conversation_id: id });
      expect((refused.content[0] as { text: string }).text).toContain('being run by another process');
      release();
      const done = (await run) as CallToolResult;
      expect(done.structuredContent).toMatchObject({ status: 'finished', final_answer: 'Ran alone.' });
    } finally {
      release();
      await Promise.all([first.close(), second.close()]);
    }
  });
});

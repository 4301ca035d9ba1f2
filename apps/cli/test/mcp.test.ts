// `x mcp` judged by MCP clients: the SDK's own Client over a stdio transport that spawns the built `x mcp`, and the
// MCP Inspector CLI (stdio against `x mcp`, streamable HTTP against a real `x serve`), all on the scripted
// OpenAI-protocol model on 127.0.0.1.
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackground } from './helpers/background.js';
import { BIN, cleanEnv, tempDir } from './helpers/run-cli.js';

const execFileAsync = promisify(execFile);
const home = tempDir();
const workspace = tempDir();
let llm: ScriptedLLMServer;
let llmEnv: Record<string, string>;

/** Long enough for a loaded machine; progress resets it. */
const CALL = { timeout: 120_000, resetTimeoutOnProgress: true };

beforeAll(async () => {
  llm = await startScriptedLLMServer();
  llmEnv = { X_HOME: home.path, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: llm.baseURL, X_MODEL: 'scripted-model' };
});
afterAll(async () => {
  await llm.close();
  home.remove();
  workspace.remove();
});

function finishReply(message: string) {
  return { toolCalls: [{ name: 'finish', arguments: { message } }] };
}

async function connect(extraArgs: string[] = []): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '-w', workspace.path, ...extraArgs],
    env: cleanEnv(llmEnv) as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'x-cli-mcp-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

type View = { conversation_id: string; status: string; final_answer: string; pending_actions: unknown[] };
const viewOf = (result: unknown): View => (result as CallToolResult).structuredContent as View;

describe('x mcp over stdio, driven by the SDK Client', () => {
  it('runs a conversation in the data dir on the configured model, with progress, and reads it back', async () => {
    const { client } = await connect();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('run');
      const start = tools.find((tool) => tool.name === 'start_conversation');
      expect(Object.keys((start?.inputSchema.properties as object) ?? {})).toEqual(['message']);

      llm.push(
        { toolCalls: [{ name: 'terminal', arguments: { command: 'echo via-mcp > note.txt && cat note.txt' } }] },
        finishReply('Wrote the note.'),
      );
      const id = viewOf(await client.callTool({ name: 'start_conversation', arguments: {} })).conversation_id;
      const progress: Progress[] = [];
      const done = viewOf(
        await client.callTool({ name: 'run', arguments: { conversation_id: id, message: 'Write a note' } }, undefined, {
          ...CALL,
          onprogress: (update) => progress.push(update),
        }),
      );
      expect(done).toMatchObject({ status: 'finished', final_answer: 'Wrote the note.' });
      expect(progress.map((update) => update.message)).toContain(
        'agent calls terminal: echo via-mcp > note.txt && cat note.txt',
      );
      expect(existsSync(join(workspace.path, 'note.txt'))).toBe(true);
      expect(llm.requests.at(-1)?.model).toBe('scripted-model');
      expect(existsSync(join(home.path, 'conversations', id.replace(/-/g, ''), 'base_state.json'))).toBe(true);

      const listed = (await client.callTool({ name: 'list_conversations', arguments: {} })) as CallToolResult;
      expect((listed.structuredContent as { conversations: unknown[] }).conversations).toContainEqual({
        conversation_id: id,
        status: 'finished',
      });
      // A conversation named that is not, and arguments refused, are tool execution errors the model can read (MCP
      // 2025-11-25, SEP-1303), the reason structured for a client.
      await expect(
        client.callTool({ name: 'get_conversation', arguments: { conversation_id: '../../etc' } }),
      ).resolves.toMatchObject({
        isError: true,
        structuredContent: { reason: 'conversation_not_found', conversation_id: '../../etc' },
      });
      await expect(
        client.callTool({ name: 'start_conversation', arguments: { conversation: { agent: {} } } }),
      ).resolves.toMatchObject({
        isError: true,
        structuredContent: { reason: 'invalid_arguments', tool: 'start_conversation', path: 'arguments.conversation' },
      });
    } finally {
      await client.close();
    }
  });

  it('asks for confirmation with --confirm always; a cancelled run goes on, in a new process too', async () => {
    llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo confirmed' } }] },
      finishReply('Confirmed.'),
    );
    const first = await connect(['--confirm', 'always']);
    let id = '';
    try {
      const { client } = first;
      id = viewOf(await client.callTool({ name: 'start_conversation', arguments: { message: 'Go' } })).conversation_id;
      const waiting = viewOf(
        await client.callTool({ name: 'run', arguments: { conversation_id: id } }, undefined, CALL),
      );
      expect(waiting.status).toBe('waiting_for_confirmation');
      expect(waiting.pending_actions).toHaveLength(1);
      const done = viewOf(
        await client.callTool(
          { name: 'confirm_actions', arguments: { conversation_id: id, approve: true } },
          undefined,
          CALL,
        ),
      );
      expect(done).toMatchObject({ status: 'finished', final_answer: 'Confirmed.' });
    } finally {
      await first.client.close();
    }

    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo part-one' } }] },
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo part-two' } }], gate },
      finishReply('Went on without the caller.'),
    );
    const { client } = await connect();
    try {
      // Another process reads the first one's conversation from the data dir.
      const earlier = viewOf(await client.callTool({ name: 'get_conversation', arguments: { conversation_id: id } }));
      expect(earlier).toMatchObject({ status: 'finished', final_answer: 'Confirmed.' });
      // A new conversation: the first keeps the confirmation policy it was created with.
      const next = viewOf(await client.callTool({ name: 'start_conversation', arguments: {} })).conversation_id;
      const cancel = new AbortController();
      const seen: string[] = [];
      const call = client
        .callTool({ name: 'run', arguments: { conversation_id: next, message: 'Two parts' } }, undefined, {
          ...CALL,
          signal: cancel.signal,
          onprogress: (update) => seen.push(update.message ?? ''),
        })
        .catch((error: unknown) => error);
      let ended: unknown;
      void call.then((value) => {
        ended = value ?? 'ended';
      });
      while (!seen.some((message) => message.startsWith('terminal returned'))) {
        if (ended !== undefined) throw new Error(`run ended before its first tool result: ${JSON.stringify(ended)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      cancel.abort();
      expect(await call).toBeInstanceOf(Error);
      // The cancellation is a notification of its own: a round trip after it, and the server has it.
      await client.ping();
      release();
      for (;;) {
        const view = viewOf(await client.callTool({ name: 'get_conversation', arguments: { conversation_id: next } }));
        if (view.status !== 'running' && view.status !== 'idle') {
          expect(view).toMatchObject({ status: 'finished', final_answer: 'Went on without the caller.' });
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await client.close();
    }
  });

  it('refuses to start without a model, as x run does', async () => {
    const { X_MODEL: _, OPENAI_API_KEY: __, ...noModel } = llmEnv;
    const result = await execFileAsync(process.execPath, [BIN, 'mcp'], { env: cleanEnv(noModel) }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(result).toMatchObject({ code: 1 });
    expect((result as { stderr: string }).stderr).toContain('No model is configured');
  });
});

/** The MCP Inspector's CLI (`mcp-inspector-cli --cli …`); it reads its package.json relative to its cwd. */
async function inspector(args: string[]): Promise<unknown> {
  const require = createRequire(import.meta.url);
  const cli = join(dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build', 'cli.js');
  const { stdout } = await execFileAsync(process.execPath, [cli, '--cli', ...args], {
    cwd: dirname(cli),
    env: cleanEnv(llmEnv),
    timeout: 300_000,
  });
  return JSON.parse(stdout.slice(stdout.indexOf('{')));
}

describe('the MCP Inspector CLI', () => {
  it('lists and calls the tools of x mcp over stdio', async () => {
    const stdio = ['-e', `X_HOME=${home.path}`, '-e', 'OPENAI_API_KEY=sk-test', '-e', `OPENAI_BASE_URL=${llm.baseURL}`];
    const server = [...stdio, process.execPath, BIN, 'mcp', '-w', workspace.path];
    const listed = (await inspector([...server, '--method', 'tools/list'])) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual([
      'confirm_actions',
      'get_conversation',
      'interrupt',
      'list_conversations',
      'run',
      'send_message',
      'start_conversation',
    ]);
    const started = (await inspector([
      ...server,
      '--method',
      'tools/call',
      '--tool-name',
      'start_conversation',
      '--tool-arg',
      'message=Hello',
    ])) as CallToolResult;
    const id = viewOf(started).conversation_id;
    llm.push(finishReply('Hello from x mcp.'));
    const ran = (await inspector([
      ...server,
      '--method',
      'tools/call',
      '--tool-name',
      'run',
      '--tool-arg',
      `conversation_id=${id}`,
    ])) as CallToolResult;
    expect(viewOf(ran)).toMatchObject({ status: 'finished', final_answer: 'Hello from x mcp.' });
    const templates = (await inspector([...server, '--method', 'resources/templates/list'])) as {
      resourceTemplates: { uriTemplate: string }[];
    };
    expect(templates.resourceTemplates.map((template) => template.uriTemplate)).toContain(
      'x://conversations/{conversation_id}',
    );
    const resources = (await inspector([...server, '--method', 'resources/list'])) as { resources: { uri: string }[] };
    expect(resources.resources.map((resource) => resource.uri)).toContain(`x://conversations/${id}`);
    const read = (await inspector([...server, '--method', 'resources/read', '--uri', `x://conversations/${id}`])) as {
      contents: { text: string }[];
    };
    expect(JSON.parse(read.contents[0]?.text ?? '{}')).toMatchObject({ id, execution_status: 'finished' });
  });

  it('lists and calls the tools of x serve over streamable HTTP, behind the session key', async () => {
    const agentFile = join(home.path, 'mcp-agent.json');
    const create = { agent: { llm: { model: 'gpt-test', base_url: llm.baseURL, api_key: 'sk-test' } } };
    writeFileSync(agentFile, JSON.stringify(create));
    const served = startBackground(
      [
        'serve',
        '--port',
        '0',
        '--data-dir',
        join(home.path, 'served'),
        '--api-key',
        'mcp-key',
        '--unsandboxed',
        '--mcp-conversation',
        agentFile,
      ],
      llmEnv,
    );
    try {
      const url = (await served.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/, undefined, 'stderr'))[1] ?? '';
      const http = [`${url}/api/mcp`, '--transport', 'http', '--header', 'X-Session-API-Key: mcp-key'];
      const listed = (await inspector([...http, '--method', 'tools/list'])) as { tools: { name: string }[] };
      expect(listed.tools).toHaveLength(7);
      llm.push(finishReply('Hello over HTTP.'));
      // No create body: the agent of --mcp-conversation.
      const started = (await inspector([
        ...http,
        '--method',
        'tools/call',
        '--tool-name',
        'start_conversation',
        '--tool-arg',
        'message=Hi',
      ])) as CallToolResult;
      const id = viewOf(started).conversation_id;
      const ran = (await inspector([
        ...http,
        '--method',
        'tools/call',
        '--tool-name',
        'run',
        '--tool-arg',
        `conversation_id=${id}`,
      ])) as CallToolResult;
      expect(viewOf(ran)).toMatchObject({ status: 'finished', final_answer: 'Hello over HTTP.' });
      expect(llm.requests.at(-1)?.model).toBe('gpt-test');
      await expect(inspector([`${url}/api/mcp`, '--transport', 'http', '--method', 'tools/list'])).rejects.toThrow();
    } finally {
      await served.interrupt();
    }
  });
});

import { realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ScriptedLLMServer, type ScriptedReply, startScriptedLLMServer } from '@x/agent/testing';
import { type BuildServerOptions, type BuiltServer, buildServer, type ServerConfigInput } from '../src/index.js';

export interface TestServer {
  built: BuiltServer;
  url: string;
  dataDir: string;
  llm: ScriptedLLMServer;
  /** fetch against the server with JSON encoding/decoding. */
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; json: unknown }>;
  /** Stops the server and the LLM (keeps the data dir). */
  stop(): Promise<void>;
}

/**
 * What the fixture MCP servers read outside a conversation's workspace, inside its sandbox: their scripts and the
 * packages they import (where pnpm keeps them). Given as the server config's own allowance (`sandbox`).
 */
export const fixtureReadablePaths: string[] = ['./fixtures', '../node_modules', '../../../node_modules'].map((path) =>
  realpathSync(fileURLToPath(new URL(path, import.meta.url))),
);

export async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'x-server-test-'));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
}

export async function startTestServer(
  options: {
    dataDir?: string;
    llm?: ScriptedLLMServer;
    config?: Partial<ServerConfigInput>;
    build?: BuildServerOptions;
  } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await tempDir());
  const llm = options.llm ?? (await startScriptedLLMServer());
  const built = await buildServer({ port: 0, dataDir, logLevel: 'silent', ...options.config }, options.build);
  const { url } = await built.listen();
  const call: TestServer['call'] = async (method, path, body, headers = {}) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
  };
  return {
    built,
    url,
    dataDir,
    llm,
    call,
    async stop() {
      await built.close();
      await llm.close();
    },
  };
}

/** A create request for the scripted LLM server. */
export function createRequest(llm: ScriptedLLMServer, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    agent: {
      llm: { model: 'gpt-test', base_url: llm.baseURL, api_key: 'sk-test-secret' },
      tools: [{ name: 'TerminalTool' }],
    },
    ...extra,
  };
}

export function finishReply(message: string): ScriptedReply {
  return { toolCalls: [{ name: 'finish', arguments: { message } }] };
}

/** Waits until the conversation's background run is over (status no longer running). */
export async function waitForIdle(
  server: TestServer,
  id: string,
  timeoutMs = 60_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const managed = await server.built.manager.get(id);
    const { json } = await server.call('GET', `/api/conversations/${id}`);
    const info = json as Record<string, unknown>;
    if (managed !== undefined && !managed.isRunning && info.execution_status !== 'running') return info;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`conversation ${id} still running after ${timeoutMs} ms`);
}

/** Polls `check` until true; the limit is a safety net for a broken test, generous for a loaded machine. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`condition not met within ${timeoutMs} ms`);
}

export async function createConversation(server: TestServer, extra: Record<string, unknown> = {}): Promise<string> {
  const { status, json } = await server.call('POST', '/api/conversations', createRequest(server.llm, extra));
  if (status !== 201) throw new Error(`create failed: ${status} ${JSON.stringify(json)}`);
  return (json as { id: string }).id;
}

/**
 * A conversation created under AlwaysConfirm (with `headers`, e.g. a decider's key) whose first step waits for a
 * decision on the next scripted reply's action; its id and that action's id once it waits and no run is under way.
 */
export async function createWaitingConversation(
  server: TestServer,
  llm: ScriptedLLMServer,
  headers: Record<string, string>,
): Promise<{ id: string; actionId: string }> {
  const created = await server.call(
    'POST',
    '/api/conversations',
    {
      ...createRequest(llm),
      confirmation_policy: { kind: 'AlwaysConfirm' },
      initial_message: { content: [{ type: 'text', text: 'do it' }], run: true },
    },
    headers,
  );
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${JSON.stringify(created.json)}`);
  const id = (created.json as { id: string }).id;
  const managed = await server.built.manager.require(id);
  await waitFor(
    async () => (await managed.open()).state.execution_status === 'waiting_for_confirmation' && !managed.isRunning,
  );
  const [action] = await (await managed.open()).pendingActions();
  if (action === undefined) throw new Error(`conversation ${id} waits with no pending action`);
  return { id, actionId: action.id };
}

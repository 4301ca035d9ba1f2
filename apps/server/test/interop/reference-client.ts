import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer, tempDir } from '../helpers.js';
import { connectRecording, type RecordingSocket } from '../support/socket-client.js';

/**
 * Our server driven exactly as the reference's Python `RemoteConversation` and `RemoteWorkspace` drive an
 * agent server: its request bodies (remote_conversation.py, remote_workspace_mixin.py), its event socket
 * (no query: live events only, readiness on the first ConversationStateUpdateEvent, every frame must
 * parse as an event of the reference's field sets) and its call sequence.
 */
export let server: TestServer;
export let workspace: string;
export let outside: string;
export const KEY = 'session-key-1';
export const headers = { 'X-Session-API-Key': KEY };
export type Info = Record<string, unknown>;

/** Starts the server (with a session key) and the workspace before a file's tests, and removes them after. */
export function setUpReferenceServer(): void {
  beforeAll(async () => {
    server = await startTestServer({ config: { apiKeys: [KEY] } });
    // Working directories lie in the server's workspace root (default <dataDir>/workspaces).
    workspace = join(server.dataDir, 'workspaces', 'project');
    await mkdir(workspace, { recursive: true });
    outside = await tempDir();
  });

  afterAll(async () => {
    await server.stop();
    await removeDir(server.dataDir);
    await removeDir(outside);
  });
}

export const api = (method: string, path: string, body?: unknown) => server.call(method, path, body, headers);

/** The create body of RemoteConversation.__init__ (secrets exposed, initial_message null). */
export function referenceCreateBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { agent } = createRequest(server.llm) as { agent: Record<string, unknown> };
  return {
    agent: { ...agent, kind: 'Agent' },
    initial_message: null,
    max_iterations: 500,
    stuck_detection: true,
    workspace: { working_dir: workspace },
    tool_module_qualnames: {},
    agent_definitions: [],
    plugins: null,
    hook_config: null,
    client_tools: [],
    tags: {},
    user_id: null,
    ...extra,
  };
}

export function subscribe(id: string): RecordingSocket {
  const socket = connectRecording(`${server.url.replace('http', 'ws')}/sockets/events/${id}`);
  // The reference client authenticates with its first frame.
  void socket.opened.then(() => socket.send({ type: 'auth', session_api_key: KEY })).catch(() => undefined);
  return socket;
}

/** The reference's run completion: a full_state snapshot received after arming, status not running. */
export async function runToCompletion(socket: RecordingSocket, id: string): Promise<Info> {
  const armedAt = socket.frames.length;
  const run = await api('POST', `/api/conversations/${id}/run`);
  expect([200, 409]).toContain(run.status);
  let finalState: Info | undefined;
  await socket.waitFor((frames) => {
    for (const frame of frames.slice(armedAt)) {
      const value = frame.value as Info | undefined;
      if (frame.key === 'full_state' && value !== undefined && value.execution_status !== 'running') {
        finalState = value;
      }
    }
    return finalState !== undefined && finalState.execution_status !== 'idle';
  });
  return finalState as Info;
}

import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { safeParseEvent } from '@x/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRequest,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  tempDir,
  waitFor,
} from '../helpers.js';
import { connectRecording, type RecordingSocket } from '../support/socket-client.js';

/**
 * Our server driven exactly as the reference's Python `RemoteConversation` and `RemoteWorkspace` drive an
 * agent server: its request bodies (remote_conversation.py, remote_workspace_mixin.py), its event socket
 * (no query: live events only, readiness on the first ConversationStateUpdateEvent, every frame must
 * parse as an event of the reference's field sets) and its call sequence.
 */
let server: TestServer;
let workspace: string;
let outside: string;
const KEY = 'session-key-1';
const headers = { 'X-Session-API-Key': KEY };
type Info = Record<string, unknown>;

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

const api = (method: string, path: string, body?: unknown) => server.call(method, path, body, headers);

/** The create body of RemoteConversation.__init__ (secrets exposed, initial_message null). */
function referenceCreateBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
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

function subscribe(id: string): RecordingSocket {
  const socket = connectRecording(`${server.url.replace('http', 'ws')}/sockets/events/${id}`);
  // The reference client authenticates with its first frame.
  void socket.opened.then(() => socket.send({ type: 'auth', session_api_key: KEY })).catch(() => undefined);
  return socket;
}

/** The reference's run completion: a full_state snapshot received after arming, status not running. */
async function runToCompletion(socket: RecordingSocket, id: string): Promise<Info> {
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

describe('the reference RemoteConversation against our server', () => {
  it('create (with secrets), send, run, stream, search, pause + resume, confirmation + reject, ask_agent', async () => {
    const created = await api(
      'POST',
      '/api/conversations',
      referenceCreateBody({ secrets: { GH_TOKEN: { kind: 'StaticSecret', value: 'ghp-secret', description: null } } }),
    );
    expect(created.status).toBe(201);
    const id = (created.json as Info).id as string;
    expect(
      (created.json as { secret_registry: { secret_sources: Info } }).secret_registry.secret_sources,
    ).toHaveProperty('GH_TOKEN');
    expect(JSON.stringify(created.json)).not.toContain('ghp-secret');

    const socket = subscribe(id);
    await socket.waitFor((frames) => frames.some((frame) => frame.kind === 'ConversationStateUpdateEvent'));

    const sent = await api('POST', `/api/conversations/${id}/events`, {
      role: 'user',
      content: [{ type: 'text', text: 'hello' }],
      run: false,
      sender: null,
    });
    expect(sent.json).toEqual({ success: true });
    server.llm.push(finishReply('hi there'));
    expect((await runToCompletion(socket, id)).execution_status).toBe('finished');

    // Every frame parses with the reference's field sets.
    for (const frame of socket.frames) expect(safeParseEvent(frame).success).toBe(true);

    // Full sync as the client does it: search pages of 100 until no next_page_id.
    const page = await api('GET', `/api/conversations/${id}/events/search?limit=100`);
    const items = (page.json as { items: Info[]; next_page_id: string | null }).items;
    expect(items.map((event) => event.kind)).toContain('MessageEvent');
    expect((page.json as Info).next_page_id).toBeNull();

    // pause() then run() at once: the paused step finishes, and the run resumes instead of a 409.
    await api('POST', `/api/conversations/${id}/events`, {
      role: 'user',
      content: [{ type: 'text', text: 'more' }],
      run: false,
    });
    // The step's model answer is held until the pause is in and the run is sent (that run waits for the paused
    // step to end), so both land mid-step on any machine.
    let answer: () => void = () => undefined;
    const bothSent = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo step' } }], gate: bothSent },
      finishReply('resumed'),
    );
    const requestsBefore = server.llm.requests.length;
    await api('POST', `/api/conversations/${id}/run`);
    expect((await api('POST', `/api/conversations/${id}/pause`)).status).toBe(200);
    const resuming = api('POST', `/api/conversations/${id}/run`);
    answer();
    const resumed = await resuming;
    expect(resumed.status).toBe(200);
    await waitFor(
      async () => ((await api('GET', `/api/conversations/${id}`)).json as Info).execution_status === 'finished',
    );
    // Both steps ran: the paused one, then the resumed run's.
    expect(server.llm.requests.length - requestsBefore).toBe(2);

    // Confirmation: AlwaysConfirm, then reject the pending action.
    expect(
      (await api('POST', `/api/conversations/${id}/confirmation_policy`, { policy: { kind: 'AlwaysConfirm' } })).status,
    ).toBe(200);
    await api('POST', `/api/conversations/${id}/events`, {
      role: 'user',
      content: [{ type: 'text', text: 'ls' }],
      run: false,
    });
    server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'ls' } }] });
    await api('POST', `/api/conversations/${id}/run`);
    await waitFor(
      async () =>
        ((await api('GET', `/api/conversations/${id}`)).json as Info).execution_status === 'waiting_for_confirmation',
    );
    const rejected = await api('POST', `/api/conversations/${id}/events/respond_to_confirmation`, {
      accept: false,
      reason: 'not now',
    });
    expect(rejected.json).toEqual({ success: true });
    const rejections = await api(
      'GET',
      `/api/conversations/${id}/events/search?kind=openhands.sdk.event.llm_convertible.observation.UserRejectObservation`,
    );
    expect((rejections.json as { items: Info[] }).items[0]?.rejection_reason).toBe('not now');

    server.llm.push({ content: 'forty-two' });
    expect((await api('POST', `/api/conversations/${id}/ask_agent`, { question: 'answer?' })).json).toEqual({
      response: 'forty-two',
    });
    socket.ws.close();
  });

  it('secrets and security_analyzer with the reference bodies', async () => {
    const id = ((await api('POST', '/api/conversations', referenceCreateBody())).json as Info).id as string;
    const updated = await api('POST', `/api/conversations/${id}/secrets`, {
      secrets: {
        PLAIN: 'one',
        WRAPPED: { value: 'two' },
        STATIC: { kind: 'StaticSecret', value: 'three', description: 'the third' },
      },
    });
    expect(updated.json).toEqual({ success: true });
    const info = (await api('GET', `/api/conversations/${id}`)).json as { secret_registry: { secret_sources: Info } };
    expect(Object.keys(info.secret_registry.secret_sources).sort()).toEqual(['PLAIN', 'STATIC', 'WRAPPED']);
    expect(JSON.stringify(info)).not.toMatch(/"(one|two|three)"/);

    const lookup = await api('POST', `/api/conversations/${id}/secrets`, {
      secrets: { REMOTE: { kind: 'LookupSecret', url: 'http://127.0.0.1:1/x', headers: {} } },
    });
    expect(lookup.status).toBe(422);

    expect(
      (
        await api('POST', `/api/conversations/${id}/security_analyzer`, {
          security_analyzer: { kind: 'LLMSecurityAnalyzer' },
        })
      ).json,
    ).toEqual({ success: true });
    expect(((await api('GET', `/api/conversations/${id}`)).json as Info).security_analyzer).toEqual({
      kind: 'LLMSecurityAnalyzer',
    });
    expect((await api('POST', `/api/conversations/${id}/security_analyzer`, { security_analyzer: null })).status).toBe(
      200,
    );
    expect(((await api('GET', `/api/conversations/${id}`)).json as Info).security_analyzer).toBeNull();
    const unknown = await api('POST', `/api/conversations/${id}/security_analyzer`, {
      security_analyzer: { kind: 'GraySwanAnalyzer' },
    });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.json)).toContain('GraySwanAnalyzer');
  });

  it('fork (whole, and from an event) and navigate, with the reference bodies and status codes', async () => {
    const id = ((await api('POST', '/api/conversations', referenceCreateBody())).json as Info).id as string;
    server.llm.push(finishReply('first'));
    await api('POST', `/api/conversations/${id}/events`, {
      role: 'user',
      content: [{ type: 'text', text: 'one' }],
      run: true,
    });
    await waitFor(
      async () => ((await api('GET', `/api/conversations/${id}`)).json as Info).execution_status === 'finished',
    );
    const events = ((await api('GET', `/api/conversations/${id}/events/search?limit=100`)).json as { items: Info[] })
      .items;
    const firstMessage = events.find((event) => event.kind === 'MessageEvent') as Info;

    const whole = await api('POST', `/api/conversations/${id}/fork`, { reset_metrics: true });
    expect(whole.status).toBe(201);
    const wholeInfo = whole.json as Info;
    expect(wholeInfo.id).not.toBe(id);
    expect(wholeInfo.forked_from_conversation_id).toBe(id);
    expect(wholeInfo.execution_status).toBe('idle');
    const wholeEvents = (
      (await api('GET', `/api/conversations/${wholeInfo.id}/events/search?limit=100`)).json as { items: Info[] }
    ).items;
    expect(wholeEvents.slice(0, events.length).map((event) => event.id)).toEqual(events.map((event) => event.id));

    const forkId = '0f0e0d0c-0b0a-4909-8807-060504030201';
    const partial = await api('POST', `/api/conversations/${id}/fork`, {
      id: forkId,
      title: 'Branch',
      tags: { topic: 'x' },
      reset_metrics: false,
      from_event_id: firstMessage.id,
    });
    expect(partial.status).toBe(201);
    expect(partial.json).toMatchObject({
      id: forkId,
      title: 'Branch',
      tags: { topic: 'x' },
      leaf_event_id: firstMessage.id,
      forked_from_event_id: firstMessage.id,
    });
    expect((await api('POST', `/api/conversations/${id}/fork`, { id: forkId })).status).toBe(409);
    expect((await api('POST', `/api/conversations/${id}/fork`, { from_event_id: 'no-such-event' })).status).toBe(404);
    expect((await api('POST', '/api/conversations/00000000-0000-4000-8000-000000000000/fork', {})).status).toBe(404);

    const navigated = await api('POST', `/api/conversations/${id}/navigate`, { event_id: firstMessage.id });
    expect(navigated.status).toBe(200);
    expect((navigated.json as Info).leaf_event_id).toBe(firstMessage.id);
    expect(((await api('GET', `/api/conversations/${id}`)).json as Info).leaf_event_id).toBe(firstMessage.id);
    expect((await api('POST', `/api/conversations/${id}/navigate`, { event_id: 'nope' })).status).toBe(404);
    const empty = await api('POST', `/api/conversations/${id}/navigate`, { event_id: null });
    expect((empty.json as Info).leaf_event_id).toBeNull();

    // A sibling branch: the next message answers the navigated-to event.
    await api('POST', `/api/conversations/${id}/navigate`, { event_id: firstMessage.id });
    await api('POST', `/api/conversations/${id}/events`, {
      role: 'user',
      content: [{ type: 'text', text: 'two' }],
      run: false,
    });
    const after = (
      (await api('GET', `/api/conversations/${id}/events/search?sort_order=TIMESTAMP_DESC&limit=1`)).json as {
        items: Info[];
      }
    ).items[0] as Info;
    expect(after.parent_id).toBe(firstMessage.id);
  });
});

describe('the reference RemoteWorkspace against our server', () => {
  it('runs a command the way the client polls for it, with the minimal environment', async () => {
    process.env.X_INTEROP_SECRET_TOKEN = 'host-credential';
    try {
      const started = await api('POST', '/api/bash/start_bash_command', {
        command: 'echo out; echo err >&2; printenv X_INTEROP_SECRET_TOKEN || echo token=none; pwd; exit 3',
        timeout: 30,
        cwd: workspace,
      });
      expect(started.status).toBe(200);
      const command = started.json as Info;
      expect(command).toMatchObject({ kind: 'BashCommand', command: expect.any(String), timeout: 30 });
      let lastOrder = -1;
      let stdout = '';
      let stderr = '';
      let exitCode: number | null = null;
      await waitFor(async () => {
        const params = new URLSearchParams({
          command_id__eq: command.id as string,
          sort_order: 'TIMESTAMP',
          limit: '100',
          kind__eq: 'BashOutput',
        });
        if (lastOrder >= 0) params.set('order__gt', String(lastOrder));
        const page = (await api('GET', `/api/bash/bash_events/search?${params}`)).json as { items: Info[] };
        for (const event of page.items) {
          lastOrder = Math.max(lastOrder, event.order as number);
          stdout += (event.stdout as string | null) ?? '';
          stderr += (event.stderr as string | null) ?? '';
          if (event.exit_code !== null) exitCode = event.exit_code as number;
        }
        return exitCode !== null;
      });
      expect(exitCode).toBe(3);
      expect(stdout).toContain('out\n');
      expect(stdout).toContain('token=none');
      expect(stdout).toContain(workspace);
      expect(stderr).toContain('err');
    } finally {
      delete process.env.X_INTEROP_SECRET_TOKEN;
    }
  });

  it('uploads (multipart) and downloads files inside a workspace; refuses paths and links outside', async () => {
    // The workspace is a conversation's working directory.
    await api('POST', '/api/conversations', referenceCreateBody());
    const target = join(workspace, 'sub', 'data.bin');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([0, 1, 2, 255])]), 'data.bin');
    const upload = await fetch(`${server.url}/api/file/upload?path=${encodeURIComponent(target)}`, {
      method: 'POST',
      headers,
      body: form,
    });
    expect(await upload.json()).toEqual({ success: true });
    expect([...(await readFile(target))]).toEqual([0, 1, 2, 255]);

    const download = await fetch(`${server.url}/api/file/download?path=${encodeURIComponent(target)}`, { headers });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect([...new Uint8Array(await download.arrayBuffer())]).toEqual([0, 1, 2, 255]);

    await writeFile(join(outside, 'secret.txt'), 'outside');
    const outsideRead = await fetch(
      `${server.url}/api/file/download?path=${encodeURIComponent(join(outside, 'secret.txt'))}`,
      {
        headers,
      },
    );
    expect(outsideRead.status).toBe(403);
    await mkdir(join(workspace, 'links'), { recursive: true });
    await symlink(join(outside, 'secret.txt'), join(workspace, 'links', 'leak'));
    const viaLink = await fetch(
      `${server.url}/api/file/download?path=${encodeURIComponent(join(workspace, 'links', 'leak'))}`,
      { headers },
    );
    expect(viaLink.status).toBe(403);
    const writeViaLink = await fetch(
      `${server.url}/api/file/upload?path=${encodeURIComponent(join(workspace, 'links', 'leak'))}`,
      { method: 'POST', headers, body: form },
    );
    expect(writeViaLink.status).toBe(403);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('outside');
    const relative = await fetch(`${server.url}/api/file/download?path=relative.txt`, { headers });
    expect(relative.status).toBe(400);
    const missing = await fetch(`${server.url}/api/file/download?path=${encodeURIComponent(join(workspace, 'nope'))}`, {
      headers,
    });
    expect(missing.status).toBe(404);
    const cwdOutside = await api('POST', '/api/bash/start_bash_command', { command: 'true', cwd: outside });
    expect(cwdOutside.status).toBe(403);
  });

  it('every new route needs the session key', async () => {
    for (const [method, path] of [
      ['POST', '/api/bash/start_bash_command'],
      ['GET', '/api/bash/bash_events/search'],
      ['POST', '/api/file/upload?path=/tmp/x'],
      ['GET', '/api/file/download?path=/tmp/x'],
      ['POST', '/api/conversations/00000000-0000-4000-8000-000000000000/fork'],
      ['POST', '/api/conversations/00000000-0000-4000-8000-000000000000/navigate'],
      ['POST', '/api/conversations/00000000-0000-4000-8000-000000000000/secrets'],
      ['POST', '/api/conversations/00000000-0000-4000-8000-000000000000/security_analyzer'],
    ] as const) {
      expect((await server.call(method, path, method === 'POST' ? {} : undefined)).status, path).toBe(401);
    }
  });
});

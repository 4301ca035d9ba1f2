// The server runs every process in a sandbox: a conversation's terminal (policy from the create request, recorded
// and shown in its info), and the shell route (its output now returned, capped; a daemon it started dies with the
// server). Where no sandbox can be had it refuses to run tools unless started --unsandboxed, which warns loudly.
import { execFile } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxSupport } from '@x/agent';
import { hostPids, PRINT_PID_NAMESPACE, waitUntilGone } from '@x/agent/testing';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createConversation,
  createRequest,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  waitFor,
  waitForIdle,
} from './helpers.js';

const SECRET = 'x-server-host-secret-51c2';
const dirs: string[] = [];
let server: TestServer | undefined;

beforeEach(() => {
  process.env.X_TEST_HOST_SECRET = SECRET;
});
afterEach(async () => {
  delete process.env.X_TEST_HOST_SECRET;
  await server?.stop();
  server = undefined;
});
afterAll(async () => {
  for (const dir of dirs) await removeDir(dir);
});

async function start(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  server = await startTestServer(options);
  dirs.push(server.dataDir);
  return server;
}

/** A probe of a host whose bubblewrap is missing: it runs a binary that is not there. */
function missingBwrapProbe(): Promise<SandboxSupport> {
  return new Promise((resolve) => {
    execFile('/nonexistent/bwrap', ['--version'], (error, stdout) => {
      resolve(
        error === null
          ? { available: true, bwrap: '/nonexistent/bwrap', version: stdout.trim() }
          : { available: false, reason: `\`/nonexistent/bwrap --version\` failed: ${error.code}` },
      );
    });
  });
}

/** What a process sees of the host: PID 1, the host's variables, the server's stored conversations. */
function probeCommand(dataDir: string): string {
  return [
    `echo "pid1=$(tr '\\0' ' ' < /proc/1/cmdline)"`,
    `if grep -rqs ${SECRET} /proc/*/environ; then echo secret=visible; else echo secret=hidden; fi`,
    `if ls ${join(dataDir, 'conversations')} >/dev/null 2>&1; then echo data=visible; else echo data=hidden; fi`,
  ].join('; ');
}

describe('the shell route (/api/bash)', () => {
  it('runs in a sandbox and returns the output of the command', async () => {
    const { dataDir, call } = await start();
    const { status, json } = await call('POST', '/api/bash/execute_bash_command', {
      command: probeCommand(dataDir),
    });
    expect(status).toBe(200);
    const output = json as { exit_code: number; stdout: string };
    expect(output.exit_code).toBe(0);
    expect(output.stdout).toMatch(/pid1=\S*bwrap /);
    expect(output.stdout).toContain('secret=hidden');
    expect(output.stdout).toContain('data=hidden');
  });

  it('keeps at most a million characters of output and says what it dropped', async () => {
    const { call } = await start();
    const { json } = await call('POST', '/api/bash/execute_bash_command', {
      command: 'head -c 1500000 /dev/zero | tr "\\0" a',
    });
    const output = json as { stdout: string; stderr: string };
    expect(output.stdout.length).toBe(1_000_000);
    expect(output.stderr).toContain('[output truncated: 500000 characters past the first 1000000 were dropped]');
  });

  it('a daemon it started (double fork, new session) dies when the server closes', async () => {
    const { dataDir, call, built } = await start();
    const { status } = await call('POST', '/api/bash/start_bash_command', {
      command: `( setsid sleep 1007 & echo "$! $$ $(${PRINT_PID_NAMESPACE})" > daemon.part; mv daemon.part daemon.pid ); sleep 1008`,
    });
    expect(status).toBe(200);
    const file = join(dataDir, 'workspaces', 'daemon.pid');
    let text: string | undefined;
    await waitFor(async () => {
      text = await readFile(file, 'utf8').catch(() => undefined);
      return text !== undefined;
    });
    const [daemon, shell, namespace] = (text as string).trim().split(' ');
    const pids = await hostPids(namespace as string, [Number(daemon), Number(shell)]);
    await built.close();
    expect(await waitUntilGone(pids)).toEqual([]);
  });
});

describe('a conversation on the server', () => {
  it('runs its terminal in a sandbox of the requested policy, recorded and shown in its info', async () => {
    const { dataDir, llm, call } = await start();
    llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: probeCommand(dataDir) } }] }, finishReply('ok'));
    const id = await createConversation(server as TestServer, {
      sandbox: { network: { mode: 'allowlist', hosts: ['example.com'] } },
      initial_message: { content: 'probe' },
    });
    const info = await waitForIdle(server as TestServer, id);
    expect(info.sandbox).toMatchObject({ mode: 'sandboxed', network: { mode: 'allowlist', hosts: ['example.com'] } });
    const { json } = await call('GET', `/api/conversations/${id}/events/search?limit=100`);
    const observation = (
      json as { items: { kind: string; observation?: { content: { text: string }[] } }[] }
    ).items.find((event) => event.kind === 'ObservationEvent');
    const text = observation?.observation?.content.map((part) => part.text).join('') ?? '';
    expect(text).toMatch(/pid1=\S*bwrap /);
    expect(text).toContain('secret=hidden');
    expect(text).toContain('data=hidden');
    const record = JSON.parse(
      await readFile(join(dataDir, 'conversations', id.replace(/-/g, ''), 'x_sandbox_policy.json'), 'utf8'),
    ) as { entries: { policy: { network: { mode: string } } }[] };
    expect(record.entries.map((entry) => entry.policy.network.mode)).toEqual(['allowlist']);
  });

  it('refuses a request to opt out of the sandbox, and one that would expose the data directory', async () => {
    const { dataDir, llm, call } = await start();
    const optOut = await call('POST', '/api/conversations', createRequest(llm, { sandbox: { mode: 'unsandboxed' } }));
    expect(optOut.status).toBe(400);
    expect((optOut.json as { detail: string }).detail).toContain('x serve --unsandboxed');
    const exposing = await call(
      'POST',
      '/api/conversations',
      createRequest(llm, { sandbox: { readablePaths: [join(dataDir, 'conversations')] } }),
    );
    expect(exposing.status).toBe(400);
    expect((exposing.json as { detail: string }).detail).toContain("overlaps the server's data directory");
    const invalid = await call('POST', '/api/conversations', createRequest(llm, { sandbox: { network: 'all' } }));
    expect(invalid.status).toBe(422);
  });
});

describe('a host without a sandbox', () => {
  it('refuses to run tools (create, run, shell route) with an error naming --unsandboxed', async () => {
    const lines: string[] = [];
    const { llm, call } = await start({
      build: { sandboxProbe: missingBwrapProbe, logStream: { write: (line) => void lines.push(line) } },
      config: { logLevel: 'warn' },
    });
    expect(server?.built.sandboxing.mode).toBe('unavailable');
    expect(lines.join('')).toContain('x serve --unsandboxed');
    const created = await call('POST', '/api/conversations', createRequest(llm));
    expect(created.status).toBe(503);
    expect(created.json).toMatchObject({ code: 'sandbox_required' });
    expect((created.json as { detail: string }).detail).toContain('x serve --unsandboxed');
    expect((created.json as { detail: string }).detail).toContain('/nonexistent/bwrap');
    const shell = await call('POST', '/api/bash/execute_bash_command', { command: 'true' });
    expect(shell.status).toBe(503);
    expect((await call('GET', '/api/conversations/search')).status).toBe(200);
  });

  it('runs them WITHOUT a sandbox when started --unsandboxed, and says so in its log', async () => {
    const lines: string[] = [];
    const { llm, call } = await start({
      build: { sandboxProbe: missingBwrapProbe, logStream: { write: (line) => void lines.push(line) } },
      config: { logLevel: 'warn', unsandboxed: true },
    });
    expect(lines.join('')).toContain('running tools WITHOUT a sandbox: the server was started with --unsandboxed');
    llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: PRINT_PID_NAMESPACE } }] }, finishReply('ok'));
    const id = await createConversation(server as TestServer, { initial_message: { content: 'where?' } });
    const info = await waitForIdle(server as TestServer, id);
    expect(info.sandbox).toMatchObject({ mode: 'unsandboxed' });
    const shell = await call('POST', '/api/bash/execute_bash_command', { command: PRINT_PID_NAMESPACE });
    expect(shell.status).toBe(200);
    expect((shell.json as { stdout: string }).stdout.trim()).toBe(readlinkSync('/proc/self/ns/pid'));
  });
});

// The processes a conversation's terminal started (the shell, background jobs, jobs that left its process group,
// grandchildren) end with the conversation: when it is deleted, when the server closes, and when the server closes
// while a command is still running (shutdown timeout).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  hostPids,
  PRINT_PID_NAMESPACE,
  processGone,
  type ScriptedReply,
  startScriptedLLMServer,
  waitUntilGone,
} from '@x/agent/testing';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createConversation,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  waitFor,
  waitForIdle,
} from './helpers.js';

const started: number[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone, as it should be.
    }
  }
  for (const dir of dirs) await removeDir(dir);
});

/**
 * A command that starts long-running processes and writes their pids (with the shell's) to `pidFile` (in the
 * sandbox's workspace: nothing else is writable), with the PID namespace they are pids of; `then` runs in the
 * foreground afterwards.
 */
function spawnCommand(pidFile: string, then = 'true'): string {
  return [
    'sleep 1001 & a=$!',
    'setsid sleep 1002 & b=$!',
    "bash -c 'sleep 1003 & echo $! > nested.pid; wait' & c=$!",
    'while [ ! -s nested.pid ]; do sleep 0.02; done',
    `echo "[$$,$a,$b,$c,$(cat nested.pid)] $(${PRINT_PID_NAMESPACE})" > ${pidFile}.part; mv ${pidFile}.part ${pidFile}; rm nested.pid`,
    then,
  ].join('; ');
}

/** The terminal call of `spawnCommand`. */
function spawnCall(pidFile: string, then = 'true', timeout?: number): ScriptedReply {
  const command = spawnCommand(pidFile, then);
  return {
    toolCalls: [{ name: 'terminal', arguments: { command, ...(timeout === undefined ? {} : { timeout }) } }],
  };
}

async function readPids(pidFile: string): Promise<number[]> {
  let text: string | undefined;
  await waitFor(async () => {
    text = await readFile(pidFile, 'utf8').catch(() => undefined);
    return text !== undefined;
  }, 60_000);
  const [list, namespace] = (text as string).trim().split(' ');
  // Mapped while they run: inside the sandbox they are pids of its own PID namespace.
  const pids = await hostPids(namespace as string, JSON.parse(list as string) as number[]);
  started.push(...pids);
  expect(pids).toHaveLength(5);
  return pids;
}

async function setUp(replies: ScriptedReply[], config: Record<string, unknown> = {}) {
  const llm = await startScriptedLLMServer();
  llm.push(...replies);
  const server = await startTestServer({ llm, config });
  dirs.push(server.dataDir);
  return { server, pidFile: 'pids.json' };
}

/** Where a conversation's (or, without an id, the shell route's) command wrote `pidFile`. */
function written(server: TestServer, pidFile: string, id?: string): string {
  const workspaces = join(server.dataDir, 'workspaces');
  return id === undefined ? join(workspaces, pidFile) : join(workspaces, id.replace(/-/g, ''), pidFile);
}

describe('terminal processes end with their conversation', () => {
  it.each([
    [
      'DELETE of the conversation',
      (server: TestServer, id: string) => server.call('DELETE', `/api/conversations/${id}`),
    ],
    ['closing the server', (server: TestServer) => server.built.close()],
  ] as const)('%s kills them', async (_, end) => {
    const { server, pidFile } = await setUp([]);
    try {
      server.llm.push(spawnCall(pidFile), finishReply('done'));
      const id = await createConversation(server, { initial_message: { content: 'start things' } });
      const pids = await readPids(written(server, pidFile, id));
      await waitForIdle(server, id);
      for (const pid of pids) expect(await processGone(pid)).toBe(false);
      await end(server, id);
      expect(await waitUntilGone(pids)).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('closing the server kills the commands of /api/bash/start_bash_command with all they started', async () => {
    const { server, pidFile } = await setUp([]);
    try {
      const command = spawnCommand(pidFile, 'sleep 1004');
      const started = await server.call('POST', '/api/bash/start_bash_command', { command, timeout: 3000 });
      expect(started.status).toBe(200);
      const pids = await readPids(written(server, pidFile));
      for (const pid of pids) expect(await processGone(pid)).toBe(false);
      await server.built.close();
      expect(await waitUntilGone(pids)).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('closing the server while a command still runs (shutdown timeout) kills them', async () => {
    const { server, pidFile } = await setUp([], { shutdownTimeoutMs: 0 });
    try {
      server.llm.push(spawnCall(pidFile, 'sleep 1004', 3000), finishReply('done'));
      const id = await createConversation(server, { initial_message: { content: 'start things' } });
      const pids = await readPids(written(server, pidFile, id));
      await server.built.close();
      expect(await waitUntilGone(pids)).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});

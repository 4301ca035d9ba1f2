// SIGTERM and SIGHUP end `x run` at once, and with it every process the agent's terminal started: its shell (in
// its own process group), background jobs, jobs that left the group (`setsid`) and grandchildren.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  hostPids,
  PRINT_PID_NAMESPACE,
  type ScriptedLLMServer,
  startScriptedLLMServer,
  waitUntilGone,
} from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackground } from './helpers/background.js';
import { tempDir } from './helpers/run-cli.js';

const home = tempDir();
let server: ScriptedLLMServer;
const started: number[] = [];

beforeAll(async () => {
  server = await startScriptedLLMServer();
});
afterAll(async () => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone, as it should be.
    }
  }
  await server.close();
  home.remove();
});

describe.each(['SIGTERM', 'SIGHUP'] as const)('x run receiving %s', (signal) => {
  it('exits by the signal and leaves none of the processes its commands started', async () => {
    const workspace = tempDir();
    const pidFile = join(workspace.path, 'pids.json');
    const command = [
      'sleep 1001 & a=$!',
      'setsid sleep 1002 & b=$!',
      "bash -c 'sleep 1003 & echo $! > nested.pid; wait' & c=$!",
      'while [ ! -s nested.pid ]; do sleep 0.02; done',
      `echo "[$$,$a,$b,$c,$(cat nested.pid)] $(${PRINT_PID_NAMESPACE})" > pids.part; mv pids.part pids.json`,
      'sleep 1004',
    ].join('; ');
    // Only the terminal call: the run never gets further.
    server.push({ toolCalls: [{ name: 'terminal', arguments: { command, timeout: 3000 } }] });
    const run = startBackground(['run', 'Start things', '--model', 'my-local-model', '--workspace', workspace.path], {
      X_HOME: home.path,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: server.baseURL,
    });
    try {
      // The live view shows a command's output only when it ends: the pid file says when everything runs.
      while (!existsSync(pidFile)) {
        if (run.child.exitCode !== null) throw new Error(`x run exited early:\n${run.stdout}\n${run.stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Pids of the sandbox's PID namespace, mapped to the host's while they run.
      const [list, namespace] = readFileSync(pidFile, 'utf8').trim().split(' ');
      const pids = await hostPids(namespace as string, JSON.parse(list as string) as number[]);
      started.push(...pids);
      expect(pids).toHaveLength(5);
      const closed = new Promise<NodeJS.Signals | null>((resolve) => run.child.once('close', (_, by) => resolve(by)));
      run.child.kill(signal);
      expect(await closed).toBe(signal);
      expect(await waitUntilGone(pids)).toEqual([]);
    } finally {
      workspace.remove();
    }
  }, 120_000);
});

import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startScriptedLLMServer } from '@x/agent/testing';
import { describe, expect, it } from 'vitest';
import { removeDir, startTestServer, tempDir, waitFor } from './helpers.js';

const serverRoot = fileURLToPath(new URL('..', import.meta.url));

/** Starts `x-server` as a child process and resolves with its URL once it prints it. */
function startBin(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/bin.ts', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'],
    {
      cwd: serverRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /x-server listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('exit', (code) => reject(new Error(`x-server exited early (${code}): ${output}`)));
  });
}

describe('x-server binary', () => {
  it('on SIGTERM pauses the running conversation, waits for the run and exits 0', async () => {
    const dataDir = await tempDir();
    const llm = await startScriptedLLMServer((_body, index) => ({
      toolCalls: [{ name: 'terminal', arguments: { command: `echo turn ${index}` } }],
      delayMs: 100,
    }));
    try {
      const { child, url } = await startBin(dataDir);
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const created = await fetch(`${url}/api/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          agent: { llm: { model: 'gpt-test', base_url: llm.baseURL, api_key: 'k' }, tools: [{ name: 'TerminalTool' }] },
          initial_message: { content: 'keep going' },
        }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      await waitFor(async () => llm.requests.length >= 2);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);

      const after = await startTestServer({ dataDir });
      try {
        const info = (await after.call('GET', `/api/conversations/${id}`)).json as { execution_status: string };
        expect(info.execution_status).toBe('paused');
        const pauses = (await after.call('GET', `/api/conversations/${id}/events/count?kind=PauseEvent`))
          .json as number;
        expect(pauses).toBeGreaterThanOrEqual(1);
        expect((await after.call('GET', `/api/conversations/${id}/events/count?kind=AgentErrorEvent`)).json).toBe(0);
      } finally {
        await after.stop();
      }
    } finally {
      await llm.close();
      await removeDir(dataDir);
    }
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Observation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Tool } from '../tools/tool.js';
import { fixtureReadablePaths, stdioServer, testServerScript } from './__fixtures__/servers.js';
import { MCP_ACTION_KIND } from './mcp-tool.js';
import { McpToolset } from './mcp-toolset.js';

// A server that timed out is stopped, so its next call starts a fresh one (a hung server would otherwise stay
// hung); a server that failed to start is tried again by the next start or call, not given up on for good.

let dir: string;
const open: McpToolset[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-mcp-restart-'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((set) => set.close()));
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

function call(tools: Tool[], name: string): Promise<Observation> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool.execute({ data: {}, kind: MCP_ACTION_KIND }, { workspace: dir });
}

const text = (observation: Observation, index: number) =>
  (observation.content[index] as { text?: string } | undefined)?.text;

describe('MCP servers that fail', () => {
  it('a server that timed out is started again by the next call', async () => {
    const set = new McpToolset({ mcpServers: { test: stdioServer({ timeout: 2 }) } });
    open.push(set);
    const { tools, errors } = await set.start();
    expect(errors).toEqual([]);
    const before = text(await call(tools, 'pid'), 1);
    expect(before).toMatch(/^\S+$/);
    const hung = await call(tools, 'hang');
    expect(hung.is_error).toBe(true);
    expect(text(hung, 0)).toContain("MCP tool 'hang' timed out after 2 seconds");
    const after = text(await call(tools, 'pid'), 1);
    expect(after).toMatch(/^\S+$/);
    expect(after).not.toBe(before);
  });

  it('a server that failed to start once is tried again', async () => {
    // Fails on its first start (leaving a marker), then starts as the real test server.
    const script = `if [ ! -e started-once ]; then touch started-once; echo "not ready" >&2; exit 1; fi; exec "${process.execPath}" "${testServerScript}" stdio`;
    const set = new McpToolset(
      {
        mcpServers: {
          flaky: { command: '/bin/sh', args: ['-c', script], sandbox: { readablePaths: fixtureReadablePaths } },
        },
      },
      // The workspace is the sandbox's writable directory and the server's cwd: the marker goes there.
      { workspace: dir },
    );
    open.push(set);
    const first = await set.start();
    expect(first.tools).toEqual([]);
    expect(first.errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/^MCP server 'flaky' failed to start: .*not ready/),
    ]);
    const second = await set.start();
    expect(second.errors).toEqual([]);
    expect(text(await call(second.tools, 'pid'), 1)).toMatch(/^\S+$/);
  });
});

describe('MCP calls', () => {
  it('stop when their signal aborts (an interrupt), long before the call timeout', async () => {
    const set = new McpToolset({ mcpServers: { test: stdioServer() } });
    open.push(set);
    const { tools } = await set.start();
    const hang = tools.find((tool) => tool.name === 'hang')!;
    const controller = new AbortController();
    const call = hang.execute({ data: {}, kind: MCP_ACTION_KIND }, { workspace: dir, signal: controller.signal });
    controller.abort(new Error('interrupted by the user'));
    const observation = await call;
    expect(observation.is_error).toBe(true);
    expect(text(observation, 0)).toMatch(/^Error calling MCP tool hang: /);
  });
});

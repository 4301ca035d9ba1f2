// The transport error a failed MCP call reports is one that came while that call was under way: an earlier one the
// connection lived through (a stdio server's stray line on stdout) says nothing about a later, unrelated failure.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Observation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Tool } from '../tools/tool.js';
import { stdioServer } from './__fixtures__/servers.js';
import { MCP_ACTION_KIND } from './mcp-tool.js';
import { McpToolset } from './mcp-toolset.js';

let dir: string;
const open: McpToolset[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-mcp-transport-errors-'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((set) => set.close()));
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

async function startedTools(): Promise<Tool[]> {
  const set = new McpToolset({ mcpServers: { test: stdioServer() } }, { workspace: dir });
  open.push(set);
  const { tools, errors } = await set.start();
  expect(errors).toEqual([]);
  return tools;
}

function call(tools: Tool[], name: string, data: Record<string, unknown> = {}): Promise<Observation> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool.execute({ data, kind: MCP_ACTION_KIND }, { workspace: dir });
}

const text = (observation: Observation, index: number) =>
  (observation.content[index] as { text?: string } | undefined)?.text;

describe('transport errors reported with a failed MCP call', () => {
  it('leaves out one the connection lived through before the call', async () => {
    const tools = await startedTools();
    const noisy = await call(tools, 'noise');
    expect(noisy.is_error).toBe(false);
    expect(text(noisy, 1)).toBe('noisy');
    const failed = await call(tools, 'garbage');
    expect(failed.is_error).toBe(true);
    expect(text(failed, 0)).toMatch(
      /^Error calling MCP tool garbage: MCP server 'test' failed to run tool 'garbage': /,
    );
    expect(text(failed, 0)).not.toContain('transport error');
  });

  it('names one that came while the failed call was under way', async () => {
    const tools = await startedTools();
    const failed = await call(tools, 'noise', { malformed: true });
    expect(failed.is_error).toBe(true);
    expect(text(failed, 0)).toMatch(
      /^Error calling MCP tool noise: MCP server 'test' failed to run tool 'noise': .+ \(transport error: .+\)$/s,
    );
  });

  it('leaves out one of an earlier failed call', async () => {
    const tools = await startedTools();
    expect(text(await call(tools, 'noise', { malformed: true }), 0)).toContain('transport error');
    const failed = await call(tools, 'garbage');
    expect(failed.is_error).toBe(true);
    expect(text(failed, 0)).not.toContain('transport error');
  });
});

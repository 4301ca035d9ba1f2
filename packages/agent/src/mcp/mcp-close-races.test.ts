// close() racing the other ways an MCP server stops or starts: when close() resolves, no server process of the
// toolset runs, whether another close was under way, or a restart after a crash was still starting (and failed late)
// while a newer start came up. Real stdio servers, run without a sandbox so their processes are this process's
// descendants; each interleaving is forced with a file the test creates, not with timing.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Observation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Sandbox } from '../sandbox/sandbox.js';
import { sandboxPolicySchema } from '../sandbox/sandbox-policy.js';
import { createUnsandboxedSandbox } from '../sandbox/unsandboxed.js';
import type { SandboxAccess } from '../sandboxing/sandbox-access.js';
import type { Tool } from '../tools/tool.js';
import { testServerScript } from './__fixtures__/servers.js';
import type { McpServerConfigInput } from './mcp-config.js';
import { MCP_ACTION_KIND } from './mcp-tool.js';
import { McpToolset } from './mcp-toolset.js';

let dir: string;
const cleanups: (() => Promise<void>)[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-mcp-close-races-'));
});
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

/** A conversation's sandbox with no sandbox underneath, counting what its servers take and give back. */
function countingSandbox(): { access: SandboxAccess; held: () => number } {
  let held = 0;
  const open = (): Sandbox => {
    const inner = createUnsandboxedSandbox({ workspace: dir, warn: () => undefined });
    return {
      ...inner,
      prepare: async (command) => {
        held += 1;
        const release = async () => {
          held -= 1;
        };
        return { ...(await inner.prepare(command)), release };
      },
    };
  };
  const access: SandboxAccess = {
    policy: sandboxPolicySchema.parse({}),
    get: async () => open(),
    openWith: async () => open(),
  };
  return { access, held: () => held };
}

function toolset(server: McpServerConfigInput, access: SandboxAccess): McpToolset {
  const set = new McpToolset({ mcpServers: { test: server } }, { workspace: dir, sandbox: access });
  cleanups.push(() => set.close());
  return set;
}

function call(tools: Tool[], name: string): Promise<Observation> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool.execute({ data: {}, kind: MCP_ACTION_KIND }, { workspace: dir });
}

/** The live (not zombie) descendants of this process whose command line names the test server's script. */
async function runningServers(): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] !== undefined && fields[0] !== 'Z') parents.set(Number(name), Number(fields[1]));
  }
  const descends = (pid: number): boolean => {
    for (let parent = parents.get(pid); parent !== undefined; parent = parents.get(parent)) {
      if (parent === process.pid) return true;
    }
    return false;
  };
  const found: number[] = [];
  for (const pid of parents.keys()) {
    if (!descends(pid)) continue;
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.includes(testServerScript)) found.push(pid);
  }
  return found;
}

describe('close() of MCP servers', () => {
  it('resolves a second, concurrent close only once the server is gone', async () => {
    const { access, held } = countingSandbox();
    const set = toolset({ command: process.execPath, args: [testServerScript, 'stdio'] }, access);
    const { errors } = await set.start();
    expect(errors).toEqual([]);
    expect(await runningServers()).toHaveLength(1);
    const first = set.close();
    await set.close();
    // Read at once: the server's share of the sandbox is given back only after its process has ended.
    expect(held()).toBe(0);
    expect(await runningServers()).toEqual([]);
    await first;
  });

  it('leaves no server running when a restart failing late raced a newer start', async () => {
    const { access, held } = countingSandbox();
    const serve = `exec "${process.execPath}" "${testServerScript}" stdio`;
    // First start: the server. Second: held until the test creates `release`, then fails. Later ones: the server.
    const script = [
      `if [ ! -e first ]; then touch first; ${serve}; fi`,
      'if [ ! -e second ]; then touch second; while [ ! -e release ]; do sleep 0.02; done; echo late failure >&2; exit 1; fi',
      serve,
    ].join('\n');
    const set = toolset({ command: '/bin/sh', args: ['-c', script] }, access);
    const { tools, errors } = await set.start();
    expect(errors).toEqual([]);
    expect((await call(tools, 'crash')).is_error).toBe(true);
    // The next call restarts the server: that start is held.
    const restarting = call(tools, 'pid');
    await vi.waitFor(() => expect(existsSync(join(dir, 'second'))).toBe(true), { timeout: 30_000 });
    const closing = set.close();
    // A call after the close starts a newer server, which comes up while the held start is still under way.
    const newer = await call(tools, 'pid');
    expect(newer.is_error).toBe(false);
    await writeFile(join(dir, 'release'), '');
    expect((await restarting).is_error).toBe(true);
    await closing;
    expect(await runningServers()).toEqual([]);
    await set.close();
    expect(await runningServers()).toEqual([]);
    expect(held()).toBe(0);
  });
});

// One MCP server's connection where a server misbehaves or goes: a tool list over several pages (and a server whose
// pages never end), the connection to a remote server let go on close, and what a stdio server holds in the
// conversation's sandbox freed whenever it stops (close, a failed start, a crash before its restart).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Observation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Sandbox } from '../sandbox/sandbox.js';
import { sandboxPolicySchema } from '../sandbox/sandbox-policy.js';
import { createUnsandboxedSandbox } from '../sandbox/unsandboxed.js';
import type { SandboxAccess } from '../sandboxing/sandbox-access.js';
import type { Tool } from '../tools/tool.js';
import { type ScriptedServer, scriptedTool, startScriptedHttpServer } from './__fixtures__/scripted-http-server.js';
import { testServerScript } from './__fixtures__/servers.js';
import type { McpServerConfigInput } from './mcp-config.js';
import { McpServerError } from './mcp-server-error.js';
import { MCP_ACTION_KIND } from './mcp-tool.js';
import { McpToolset, type McpToolsetOptions } from './mcp-toolset.js';

let dir: string;
const cleanups: (() => Promise<void>)[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-mcp-connection-'));
});
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

function toolset(servers: Record<string, McpServerConfigInput>, options: McpToolsetOptions = {}): McpToolset {
  const set = new McpToolset({ mcpServers: servers }, { workspace: dir, ...options });
  cleanups.push(() => set.close());
  return set;
}

async function scripted(page: Parameters<typeof startScriptedHttpServer>[0]): Promise<ScriptedServer> {
  const server = await startScriptedHttpServer(page);
  cleanups.push(() => server.close());
  return server;
}

function call(tools: Tool[], name: string): Promise<Observation> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool.execute({ data: {}, kind: MCP_ACTION_KIND }, { workspace: dir });
}

const text = (observation: Observation, index: number) =>
  (observation.content[index] as { text?: string } | undefined)?.text;

describe('listing the tools of a server', () => {
  it('follows the cursor over every page, asking for each page once', async () => {
    const server = await scripted((cursor) =>
      cursor === undefined
        ? { tools: [scriptedTool('one'), scriptedTool('two')], nextCursor: 'page-2' }
        : cursor === 'page-2'
          ? { tools: [scriptedTool('three')], nextCursor: 'page-3' }
          : { tools: [scriptedTool('four')] },
    );
    const { tools, errors } = await toolset({ paged: { url: server.url } }).start();
    expect(errors).toEqual([]);
    expect(tools.map((tool) => tool.name)).toEqual(['one', 'two', 'three', 'four']);
    expect(server.listCalls).toEqual([undefined, 'page-2', 'page-3']);
    expect(text(await call(tools, 'three'), 1)).toBe('called three');
  });

  it('refuses a server that gives a cursor it gave before (its pages would never end), naming the server', async () => {
    const server = await scripted((cursor) => ({
      tools: [scriptedTool(`tool-${cursor ?? 'first'}`)],
      nextCursor: cursor === undefined ? 'a' : cursor === 'a' ? 'b' : 'a',
    }));
    const { tools, errors } = await toolset({ looping: { url: server.url } }).start();
    expect(tools).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(McpServerError);
    expect(errors[0]?.message).toMatch(/^MCP server 'looping' failed to list its tools: .*cursor 'a' again/);
    expect(server.listCalls).toEqual([undefined, 'a', 'b']);
  });

  it('gives up on a server whose pages never end within the start limit, as a timeout', async () => {
    const server = await scripted((cursor) => ({
      tools: [scriptedTool('endless')],
      nextCursor: `after-${cursor ?? 'start'}`,
    }));
    const { tools, errors } = await toolset({ endless: { url: server.url } }, { startTimeout: 1 }).start();
    expect(tools).toEqual([]);
    expect(errors[0]?.code).toBe('mcp_timeout');
    expect(errors[0]?.message).toMatch(/^MCP server 'endless' failed to list its tools: no reply within 1 seconds/);
    expect(server.listCalls.length).toBeGreaterThan(1);
  });
});

describe('closing a remote server', () => {
  it("closes the client's stream to it, and the next call opens a new one", async () => {
    const server = await scripted(() => ({ tools: [scriptedTool('ping')] }));
    const set = toolset({ remote: { url: server.url } });
    const { tools } = await set.start();
    await vi.waitFor(() => expect(server.openStreams()).toBe(1), { timeout: 20_000 });
    await set.close();
    await vi.waitFor(() => expect(server.openStreams()).toBe(0), { timeout: 20_000 });
    expect(text(await call(tools, 'ping'), 1)).toBe('called ping');
    await vi.waitFor(() => expect(server.openStreams()).toBe(1), { timeout: 20_000 });
  });
});

describe('a remote server that goes away', () => {
  it("reports the transport's own error with the failed call", async () => {
    const server = await scripted(() => ({ tools: [scriptedTool('ping')] }));
    const { tools } = await toolset({ remote: { url: server.url } }).start();
    await server.close();
    const failed = await call(tools, 'ping');
    expect(failed.is_error).toBe(true);
    expect(text(failed, 0)).toMatch(
      /^Error calling MCP tool ping: MCP server 'remote' failed to run tool 'ping': .+ \(transport error: .+\)$/,
    );
  });
});

/** A conversation's sandbox (unsandboxed underneath) that records what its stdio servers take and give back. */
function recordingSandbox(): { access: SandboxAccess; events: string[] } {
  const events: string[] = [];
  const open = (label: string): Sandbox => {
    const inner = createUnsandboxedSandbox({ workspace: dir, warn: () => undefined });
    return {
      ...inner,
      prepare: async (command) => {
        events.push(`${label} prepare ${command.command}`);
        return { ...(await inner.prepare(command)), release: async () => void events.push(`${label} release`) };
      },
      dispose: async () => {
        events.push(`${label} dispose`);
        await inner.dispose();
      },
    };
  };
  const access: SandboxAccess = {
    policy: sandboxPolicySchema.parse({}),
    get: async () => open('shared'),
    openWith: async () => open('own'),
  };
  return { access, events };
}

const plainServer = (extra: Partial<McpServerConfigInput> = {}): McpServerConfigInput => ({
  command: process.execPath,
  args: [testServerScript, 'stdio'],
  ...extra,
});

describe("a stdio server in the conversation's sandbox", () => {
  it('runs in that sandbox and gives back what it held there on close, ending only a sandbox of its own', async () => {
    const { access, events } = recordingSandbox();
    const set = toolset(
      {
        shared: plainServer(),
        own: plainServer({
          args: [testServerScript, 'stdio', '--only', 'other'],
          sandbox: { network: { mode: 'all' } },
        }),
      },
      {
        sandbox: access,
      },
    );
    const { tools, errors } = await set.start();
    expect(errors).toEqual([]);
    expect(tools.length).toBeGreaterThan(0);
    expect([...events].sort()).toEqual([`own prepare ${process.execPath}`, `shared prepare ${process.execPath}`]);
    events.length = 0;
    await set.close();
    expect([...events].sort()).toEqual(['own dispose', 'own release', 'shared release']);
  });

  it('tries a server again whose sandbox could not prepare it the first time', async () => {
    const { access, events } = recordingSandbox();
    let refusals = 1;
    const flaky: SandboxAccess = {
      ...access,
      get: async () => {
        const sandbox = await access.get();
        return {
          ...sandbox,
          prepare: async (command) => {
            if (refusals-- > 0) throw new Error('sandbox busy');
            return sandbox.prepare(command);
          },
        };
      },
    };
    const set = toolset({ test: plainServer() }, { sandbox: flaky });
    expect((await set.start()).errors[0]?.message).toMatch(/^MCP server 'test' failed to start: sandbox busy/);
    const { tools, errors } = await set.start();
    expect(errors).toEqual([]);
    expect(text(await call(tools, 'pid'), 1)).toMatch(/^\d+@/);
    expect(events).toEqual([`shared prepare ${process.execPath}`]);
  });

  it('gives back what a server that failed to start held', async () => {
    const { access, events } = recordingSandbox();
    const { errors } = await toolset(
      { missing: { command: join(dir, 'no-such-server'), sandbox: {} } },
      {
        sandbox: access,
      },
    ).start();
    expect(errors[0]?.message).toMatch(/^MCP server 'missing' failed to start: /);
    expect(events).toEqual([`own prepare ${join(dir, 'no-such-server')}`, 'own release', 'own dispose']);
  });

  it('gives back what a crashed server held before starting it again, and reports no stderr of an earlier run', async () => {
    const { access, events } = recordingSandbox();
    // Fails on its first start (leaving a marker in its cwd, the workspace), then starts as the real test server.
    const script = `if [ ! -e started-once ]; then touch started-once; echo "not ready" >&2; exit 1; fi; exec "${process.execPath}" "${testServerScript}" stdio`;
    const set = toolset({ flaky: { command: '/bin/sh', args: ['-c', script] } }, { sandbox: access });
    expect((await set.start()).errors[0]?.message).toMatch(/not ready/);
    const { tools, errors } = await set.start();
    expect(errors).toEqual([]);
    events.length = 0;
    const crashed = await call(tools, 'crash');
    expect(crashed.is_error).toBe(true);
    expect(text(crashed, 0)).toMatch(/^Error calling MCP tool crash: MCP server 'flaky' failed to run tool 'crash'/);
    expect(text(crashed, 0)).not.toContain('not ready');
    expect(text(await call(tools, 'pid'), 1)).toMatch(/^\d+@/);
    expect(events).toEqual(['shared release', 'shared prepare /bin/sh']);
  });
});

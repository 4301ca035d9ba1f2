import type { Observation } from '@x/events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Tool } from '../tools/tool.js';
import {
  closedPortUrl,
  fixtureReadablePaths,
  garbageServerScript,
  startGarbageHttpServer,
  startHttpTestServer,
  stdioServer,
} from './__fixtures__/servers.js';
import type { McpServerConfigInput } from './mcp-config.js';
import { McpServerError } from './mcp-server-error.js';
import { MCP_ACTION_KIND, MCP_TOOL_KIND } from './mcp-tool.js';
import { McpToolset, type McpToolsetOptions } from './mcp-toolset.js';

const context = { workspace: process.cwd() };
const open: McpToolset[] = [];

function toolset(servers: Record<string, McpServerConfigInput>, options: McpToolsetOptions = {}): McpToolset {
  const set = new McpToolset({ mcpServers: servers }, options);
  open.push(set);
  return set;
}

function byName(tools: Tool[], name: string): Tool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
}

function call(tools: Tool[], name: string, data: Record<string, unknown> = {}): Promise<Observation> {
  return byName(tools, name).execute({ data, kind: MCP_ACTION_KIND }, context);
}

function texts(observation: Observation): string[] {
  return observation.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((set) => set.close()));
});

describe.each([
  ['stdio', async () => ({ config: stdioServer(), close: async () => {} })],
  [
    'streamable HTTP',
    async () => {
      const server = await startHttpTestServer();
      return { config: { url: server.url } as McpServerConfigInput, close: server.close };
    },
  ],
  [
    'HTTP+SSE (a URL ending in /sse)',
    async () => {
      const server = await startHttpTestServer('sse');
      return { config: { url: server.url } as McpServerConfigInput, close: server.close };
    },
  ],
])('MCP tools over %s', (_transport, start) => {
  let server: { config: McpServerConfigInput; close(): Promise<void> };
  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await server.close();
  });

  it('lists the tools with their JSON Schemas and annotations', async () => {
    const { tools, errors } = await toolset({ test: server.config }).start();
    expect(errors).toEqual([]);
    expect(tools.map((tool) => tool.name)).toEqual([
      'add',
      'pixel',
      'refuse',
      'pid',
      'env',
      'crash',
      'garbage',
      'hang',
      'read_path',
      'noise',
    ]);
    const add = byName(tools, 'add');
    expect(add.toolKind).toBe(MCP_TOOL_KIND);
    expect(add.readOnly).toBe(true);
    expect(add.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number', description: 'first addend' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    expect(add.definitionFields?.mcp_tool).toMatchObject({ name: 'add', description: 'Adds two numbers' });
  });

  it('calls a tool and records the reference MCPToolObservation', async () => {
    const { tools } = await toolset({ test: server.config }).start();
    const observation = await call(tools, 'add', { a: 2, b: 3 });
    expect(observation).toEqual({
      content: [
        { cache_prompt: false, type: 'text', text: "[Tool 'add' executed.]" },
        { cache_prompt: false, type: 'text', text: '5' },
      ],
      is_error: false,
      tool_name: 'add',
      kind: 'MCPToolObservation',
    });
  });

  it('turns image results into data URLs', async () => {
    const { tools } = await toolset({ test: server.config }).start();
    const observation = await call(tools, 'pixel');
    expect(observation.content[2]).toEqual({
      cache_prompt: false,
      type: 'image',
      image_urls: [expect.stringMatching(/^data:image\/png;base64,iVBORw0KGgo/)],
    });
  });

  it('keeps is_error from the server', async () => {
    const { tools } = await toolset({ test: server.config }).start();
    const observation = await call(tools, 'refuse');
    expect(observation.is_error).toBe(true);
    expect(texts(observation)).toEqual(["[Tool 'refuse' executed.]", 'refused on purpose']);
  });

  it('turns a malformed result into an error observation', async () => {
    const { tools } = await toolset({ test: server.config }).start();
    const observation = await call(tools, 'garbage');
    expect(observation).toMatchObject({ is_error: true, tool_name: 'garbage', kind: 'MCPToolObservation' });
    expect(texts(observation)[0]).toMatch(/^Error calling MCP tool garbage: /);
  });

  it('turns a call that hangs into a timeout error observation, and the next call still works', async () => {
    const { tools, errors } = await toolset({ test: { ...server.config, timeout: 3 } }).start();
    expect(errors).toEqual([]);
    const observation = await call(tools, 'hang');
    expect(observation.is_error).toBe(true);
    expect(texts(observation)[0]).toBe(
      "MCP tool 'hang' timed out after 3 seconds. The tool server may be unresponsive or the operation is taking too long. Consider retrying or using an alternative approach.",
    );
    expect(texts(await call(tools, 'add', { a: 1, b: 1 }))[1]).toBe('2');
  });
});

describe('MCP servers over HTTP+SSE', () => {
  it("are reached with transport 'sse' whatever the URL, and with the reference's 'type' field", async () => {
    const sse = await startHttpTestServer('sse');
    try {
      // The stream path is given as is: only the transport (not the URL) says SSE here.
      const explicit = await toolset({ explicit: { url: `${sse.url}?via=transport`, transport: 'sse' } }).start();
      expect(explicit.errors).toEqual([]);
      expect(texts(await call(explicit.tools, 'add', { a: 20, b: 22 }))[1]).toBe('42');
      const typed = await toolset({
        typed: { url: `${sse.url}?via=type`, type: 'sse' } as McpServerConfigInput,
      }).start();
      expect(typed.errors).toEqual([]);
      expect(texts(await call(typed.tools, 'add', { a: 1, b: 1 }))[1]).toBe('2');
    } finally {
      await sse.close();
    }
  });

  it('a streamable HTTP URL is not mistaken for SSE: streamable HTTP against an SSE server fails to start', async () => {
    const sse = await startHttpTestServer('sse');
    try {
      const { errors } = await toolset({ wrong: { url: sse.url, transport: 'http' } }).start();
      expect(errors[0]?.message).toMatch(/^MCP server 'wrong' failed to start: /);
    } finally {
      await sse.close();
    }
  });

  it('an SSE server that disappears after the start gives error observations', async () => {
    const sse = await startHttpTestServer('sse');
    const { tools } = await toolset({ remote: { url: sse.url } }).start();
    expect(texts(await call(tools, 'add', { a: 1, b: 2 }))[1]).toBe('3');
    await sse.close();
    const observation = await call(tools, 'add', { a: 1, b: 2 });
    expect(observation).toMatchObject({ is_error: true, tool_name: 'add', kind: 'MCPToolObservation' });
    expect(texts(observation)[0]).toMatch(/^Error calling MCP tool add: MCP server 'remote' failed to/);
  });
});

describe('MCP stdio servers', () => {
  it('start with a minimal environment: the config env and PATH/HOME basics, never the host secrets', async () => {
    process.env.X_TEST_HOST_SECRET = 'do-not-leak';
    try {
      const { tools } = await toolset({ test: stdioServer({ env: { GREETING: 'hi' } }) }).start();
      const names = JSON.parse(texts(await call(tools, 'env'))[1] ?? '[]') as string[];
      expect(names).toContain('GREETING');
      expect(names).toContain('PATH');
      expect(names).not.toContain('X_TEST_HOST_SECRET');
    } finally {
      delete process.env.X_TEST_HOST_SECRET;
    }
  });

  it('stay alive across calls and restart after a crash', async () => {
    const { tools } = await toolset({ test: stdioServer() }).start();
    const first = texts(await call(tools, 'pid'))[1];
    expect(texts(await call(tools, 'pid'))[1]).toBe(first);
    const crashed = await call(tools, 'crash');
    expect(crashed.is_error).toBe(true);
    expect(texts(crashed)[0]).toMatch(/^Error calling MCP tool crash: MCP server 'test' failed to run tool 'crash'/);
    const second = texts(await call(tools, 'pid'))[1];
    expect(second).toMatch(/^\d+@[\d-]+$/);
    expect(second).not.toBe(first);
  });

  it('restart on the next call after close', async () => {
    const set = toolset({ test: stdioServer() });
    const { tools } = await set.start();
    const first = texts(await call(tools, 'pid'))[1];
    await set.close();
    const second = texts(await call(tools, 'pid'))[1];
    expect(second).not.toBe(first);
  });
});

describe('MCP servers that fail', () => {
  it('a missing command is an error naming the server, and the other servers still start', async () => {
    const { tools, errors } = await toolset({
      missing: { command: '/nonexistent/x-mcp-server' },
      test: stdioServer(),
    }).start();
    expect(tools.map((tool) => tool.name)).toContain('add');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(McpServerError);
    expect(errors[0]?.server).toBe('missing');
    // Inside the sandbox bubblewrap is what fails to exec it.
    expect(errors[0]?.message).toMatch(/^MCP server 'missing' failed to start: .*(ENOENT|No such file or directory)/);
  });

  it('a stdio server that answers garbage times out with a clear error', async () => {
    const { tools, errors } = await toolset(
      {
        garbage: {
          command: process.execPath,
          args: [garbageServerScript],
          sandbox: { readablePaths: fixtureReadablePaths },
        },
      },
      { startTimeout: 1 },
    ).start();
    expect(tools).toEqual([]);
    expect(errors[0]?.code).toBe('mcp_timeout');
    expect(errors[0]?.message).toMatch(/^MCP server 'garbage' failed to start: no reply within 1 seconds/);
  });

  it('an HTTP server that answers garbage is an error', async () => {
    const garbage = await startGarbageHttpServer();
    try {
      const { tools, errors } = await toolset({ garbage: { url: garbage.url } }).start();
      expect(tools).toEqual([]);
      expect(errors[0]?.message).toMatch(/^MCP server 'garbage' failed to start: /);
    } finally {
      await garbage.close();
    }
  });

  it('a server that disappears after the start gives error observations', async () => {
    const http = await startHttpTestServer();
    const { tools } = await toolset({ remote: { url: http.url } }).start();
    expect(texts(await call(tools, 'add', { a: 1, b: 2 }))[1]).toBe('3');
    await http.close();
    const observation = await call(tools, 'add', { a: 1, b: 2 });
    expect(observation).toMatchObject({ is_error: true, tool_name: 'add', kind: 'MCPToolObservation' });
    expect(texts(observation)[0]).toMatch(/^Error calling MCP tool add: MCP server 'remote' failed to run tool 'add'/);
  });

  it('an HTTP server that is not there is an error', async () => {
    const { errors } = await toolset({ gone: { url: await closedPortUrl() } }).start();
    expect(errors[0]?.message).toMatch(/^MCP server 'gone' failed to start: /);
  });

  it('a disabled server is not started', async () => {
    const set = toolset({ off: { command: '/nonexistent/x-mcp-server', enabled: false } });
    expect(set.serverNames).toEqual([]);
    expect(await set.start()).toEqual({ tools: [], errors: [] });
  });
});

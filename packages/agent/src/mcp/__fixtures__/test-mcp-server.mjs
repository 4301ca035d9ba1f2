// A real MCP server for the tests, built with the SDK's server classes.
// `node test-mcp-server.mjs stdio` serves on stdin/stdout; `node test-mcp-server.mjs http` serves streamable HTTP
// on 127.0.0.1 (port 0) and prints `listening <port>` on stdout; `node test-mcp-server.mjs sse` serves the older
// HTTP+SSE transport the same way (GET /sse opens the stream, POST /messages?sessionId=… carries the requests).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** When this process started (with its pid: which server process answered). */
const STARTED = `${Date.now()}-${process.hrtime.bigint()}`;

// A 1x1 transparent PNG.
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const extraArguments = process.argv.slice(3);
// `--only` first: serve the extra tools alone.
const onlyExtra = extraArguments[0] === '--only';
const extraNames = onlyExtra ? extraArguments.slice(1) : extraArguments;

function createTestServer() {
  const server = new McpServer({ name: 'x-test-server', version: '1.0.0' });
  if (!onlyExtra) registerBaseTools(server);
  // Extra tools named on the command line (after the mode): each answers `extra <name>` (name-collision tests).
  for (const name of extraNames) {
    server.registerTool(name, { description: `Extra tool ${name}` }, async () => ({
      content: [{ type: 'text', text: `extra ${name}` }],
    }));
  }
  return server;
}

function registerBaseTools(server) {
  server.registerTool(
    'add',
    {
      description: 'Adds two numbers',
      inputSchema: { a: z.number().describe('first addend'), b: z.number().describe('second addend') },
      annotations: { readOnlyHint: true, title: 'Add numbers' },
    },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  server.registerTool('pixel', { description: 'Returns a one-pixel PNG' }, async () => ({
    content: [
      { type: 'text', text: 'here is the image' },
      { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
    ],
  }));
  server.registerTool('refuse', { description: 'Always reports a tool error' }, async () => ({
    content: [{ type: 'text', text: 'refused on purpose' }],
    isError: true,
  }));
  // Inside a sandbox every server is pid 2 of its own PID namespace: the start time tells two processes apart.
  server.registerTool('pid', { description: 'The server process id and start time' }, async () => ({
    content: [{ type: 'text', text: `${process.pid}@${STARTED}` }],
  }));
  server.registerTool('env', { description: 'Names of the environment variables the server sees' }, async () => ({
    content: [{ type: 'text', text: JSON.stringify(Object.keys(process.env).sort()) }],
  }));
  server.registerTool('crash', { description: 'Exits the server process mid-call' }, async () => {
    setImmediate(() => process.exit(3));
    return new Promise(() => {});
  });
  // Breaks the protocol: `content` must be a list.
  server.registerTool('garbage', { description: 'Returns a malformed result' }, async () => ({
    content: 'not a list',
  }));
  server.registerTool('hang', { description: 'Never answers' }, async () => new Promise(() => {}));
  server.registerTool(
    'read_path',
    { description: 'Reads a file as the server sees it (sandbox tests)', inputSchema: { path: z.string() } },
    async ({ path }) => {
      try {
        return { content: [{ type: 'text', text: readFileSync(path, 'utf8') }] };
      } catch (error) {
        return { content: [{ type: 'text', text: `ERROR ${error.code ?? error.message}` }] };
      }
    },
  );
  // Over stdio, a line on stdout that is not JSON-RPC is a transport error on the client's side, which lives on.
  server.registerTool(
    'noise',
    {
      description: 'Writes a line that is not JSON-RPC to stdout, then answers (a malformed result with `malformed`)',
      inputSchema: { malformed: z.boolean().optional() },
    },
    async ({ malformed }) => {
      process.stdout.write('this line is not json-rpc\n');
      return malformed === true ? { content: 'not a list' } : { content: [{ type: 'text', text: 'noisy' }] };
    },
  );
}

const mode = process.argv[2] ?? 'stdio';
if (mode === 'stdio') {
  await createTestServer().connect(new StdioServerTransport());
} else if (mode === 'sse') {
  /** Open SSE sessions by id: each GET /sse is one client with its own server. */
  const sessions = new Map();
  const http = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', response);
      const server = createTestServer();
      sessions.set(transport.sessionId, transport);
      response.on('close', () => {
        sessions.delete(transport.sessionId);
        void server.close();
      });
      await server.connect(transport);
      return;
    }
    const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
    if (request.method === 'POST' && url.pathname === '/messages' && transport !== undefined) {
      await transport.handlePostMessage(request, response);
      return;
    }
    response.writeHead(404).end('no such session');
  });
  http.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening ${http.address().port}\n`);
  });
} else {
  const http = createServer(async (request, response) => {
    // Stateless: a fresh server and transport per request, as the SDK's stateless example does.
    const server = createTestServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  http.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening ${http.address().port}\n`);
  });
}

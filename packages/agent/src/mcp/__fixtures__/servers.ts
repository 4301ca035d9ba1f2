import { type ChildProcess, spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { McpServerConfigInput } from '../mcp-config.js';

export const testServerScript = fileURLToPath(new URL('./test-mcp-server.mjs', import.meta.url));
export const garbageServerScript = fileURLToPath(new URL('./garbage-server.mjs', import.meta.url));

/**
 * What the fixture servers read outside a test's workspace: their scripts, and the packages they import (the
 * repository's node_modules, where pnpm keeps them). Given as the server config's own `sandbox` allowance,
 * which is what a user does for a server run from a script of theirs.
 */
export const fixtureReadablePaths: string[] = [
  realpathSync(fileURLToPath(new URL('.', import.meta.url))),
  realpathSync(fileURLToPath(new URL('../../../../../node_modules', import.meta.url))),
  realpathSync(fileURLToPath(new URL('../../../node_modules', import.meta.url))),
];

/** The stdio test server, as an `mcp_config` entry. */
export function stdioServer(extra: Partial<McpServerConfigInput> = {}): McpServerConfigInput {
  return {
    command: process.execPath,
    args: [testServerScript, 'stdio'],
    sandbox: { readablePaths: fixtureReadablePaths },
    ...extra,
  };
}

/**
 * Starts the test server in its own process on 127.0.0.1, port 0: over streamable HTTP (`/mcp`), or over the older
 * HTTP+SSE transport (`/sse`, with `sse`).
 */
export async function startHttpTestServer(
  mode: 'http' | 'sse' = 'http',
): Promise<{ url: string; origin: string; close(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [testServerScript, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`test MCP server exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

/** An HTTP server on 127.0.0.1 that answers every request with text that is not MCP. */
export async function startGarbageHttpServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"this is": "not json-rpc"');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback URL nothing listens on. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/mcp`;
}

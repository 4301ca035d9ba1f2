// The MCP face over stdio (serveMcpOverStdio), judged by the official SDK's StdioClientTransport: the handshake,
// malformed params (-32602, not -32603), cursors never given, methods not offered (-32601), and the
// server ending when the client closes stdin. The server is a child process (test/fixtures/mcp-stdio-server.ts).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadResourceResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers.js';

describe('MCP face over stdio, driven by @modelcontextprotocol/sdk', () => {
  it('initializes, refuses malformed requests with their JSON-RPC codes, and ends with stdin', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'test/fixtures/mcp-stdio-server.ts'],
      cwd: process.cwd(),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'x-mcp-stdio-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe('x-stdio-fixture');
      expect(client.getServerCapabilities()).toEqual({
        tools: { listChanged: false },
        resources: { subscribe: true, listChanged: false },
      });
      await expect(client.ping()).resolves.toEqual({});
      await expect(
        client.request({ method: 'resources/read', params: {} }, ReadResourceResultSchema),
      ).rejects.toMatchObject({ code: -32602, data: { reason: 'invalid_params', path: 'params.uri' } });
      await expect(client.callTool({ name: 'run', arguments: 'c1' as never })).rejects.toMatchObject({ code: -32602 });
      await expect(client.listTools({ cursor: 'next' })).rejects.toMatchObject({
        code: -32602,
        data: { reason: 'invalid_cursor' },
      });
      await expect(client.listPrompts()).rejects.toMatchObject({ code: -32601 });
      // A failure of the host itself is a tool result the model can read, not a protocol error.
      await expect(client.callTool({ name: 'start_conversation', arguments: {} })).resolves.toMatchObject({
        isError: true,
        content: [{ type: 'text', text: expect.stringContaining('this host makes no conversations') }],
      });
      // This host runs its own agent: start_conversation offers no create body, and refuses one.
      const { tools } = await client.listTools();
      const schemaOf = (name: string) => tools.find((tool) => tool.name === name)?.inputSchema;
      expect(Object.keys(schemaOf('start_conversation')?.properties ?? {})).toEqual(['message']);
      expect(schemaOf('run')?.required).toEqual(['conversation_id']);
      await expect(
        client.callTool({ name: 'start_conversation', arguments: { conversation: { agent: {} } } }),
      ).resolves.toMatchObject({
        isError: true,
        structuredContent: { reason: 'invalid_arguments', path: 'arguments.conversation' },
      });
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).toContain('x://conversations/c1');
    } finally {
      await client.close();
    }
    await waitFor(async () => stderr.includes('closed'));
  }, 60_000);
});

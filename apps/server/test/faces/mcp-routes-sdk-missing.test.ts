// Without @modelcontextprotocol/sdk installed, the MCP endpoint refuses to open a session with 503 and the command
// that installs the SDK, and the server itself goes on serving.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MissingDependencyError } from '../../src/dependencies/missing-dependency-error.js';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';

vi.mock('../../src/faces/mcp/load-mcp-sdk.js', () => ({
  loadMcpSdk: async () => {
    throw new MissingDependencyError({ packages: { '@modelcontextprotocol/sdk': '^1.0.0' }, feature: 'The MCP face' });
  },
}));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('the MCP endpoint without the MCP SDK', () => {
  it('answers an initialize with 503 and the install command', async () => {
    const response = await fetch(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'no-sdk', version: '1.0.0' } },
      }),
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      code: 'missing_dependency',
      detail: expect.stringContaining('npm install @modelcontextprotocol/sdk@^1.0.0'),
    });
    expect((await fetch(`${server.url}/api/conversations/search`)).status).toBe(200);
  });
});

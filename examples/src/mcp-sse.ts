// An MCP server reached over the older HTTP+SSE transport (the reference still supports it): a URL whose path ends
// in /sse is SSE, as the reference's FastMCP infers it (or say `transport: 'sse'`). The server runs in this
// process on 127.0.0.1, built with the MCP SDK's SSEServerTransport.
//
//   OPENAI_API_KEY=sk-... node dist/mcp-sse.js
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { Agent, Conversation, resolveLLMFromEnv } from '@x/agent';
import { z } from 'zod';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');

//#region server
const sessions = new Map<string, SSEServerTransport>();
const http = createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (request.method === 'GET' && url.pathname === '/sse') {
    // One stream per client: its messages come back as POST /messages?sessionId=...
    const transport = new SSEServerTransport('/messages', response);
    sessions.set(transport.sessionId, transport);
    const server = new McpServer({ name: 'calc', version: '1.0.0' });
    server.registerTool(
      'add',
      { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
      async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
    );
    response.on('close', () => sessions.delete(transport.sessionId));
    await server.connect(transport);
    return;
  }
  const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
  if (request.method === 'POST' && url.pathname === '/messages' && transport !== undefined) {
    await transport.handlePostMessage(request, response);
    return;
  }
  response.writeHead(404).end();
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const { port } = http.address() as AddressInfo;
//#endregion server

//#region agent
const agent = new Agent({
  llm,
  mcpConfig: { mcpServers: { calc: { url: `http://127.0.0.1:${port}/sse` } } },
});
//#endregion agent

const conversation = await Conversation.create({
  agent,
  onEvent: (event) => {
    if (event.kind === 'ConversationErrorEvent') console.log('error:', event.code, event.detail);
    if (event.kind === 'ObservationEvent')
      console.log(
        'observation:',
        event.observation.content.map((part) => (part.type === 'text' ? part.text : '')).join(' '),
      );
  },
});
await conversation.sendMessage('What is 2 + 3? Use the add tool.');
const result = await conversation.run();
console.log('status:', result.status);
await conversation.close(); // disconnects from the server
http.closeAllConnections();
await new Promise<void>((resolve) => http.close(() => resolve()));

// An MCP client's view of an x agent: the official MCP SDK's Client connects to the server's MCP face (streamable
// HTTP at /api/mcp), lists its tools, starts a conversation and runs it, printing the progress notifications of
// the run (one per event, numbered by the event's place in the log) and then the agent's final answer; then it
// reads the conversation's log as an MCP resource. `x mcp` offers the same tools and resources over stdio. Should
// the HTTP stream of `run` drop, the SDK's transport reconnects with Last-Event-ID and the server replays what it
// missed (reconnectionOptions below).
//
//   OPENAI_API_KEY=sk-... node dist/mcp-face-client.js     (OPENAI_BASE_URL for another endpoint)
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildServer, resolveServerConfig } from '@x/server';

if (!process.env.OPENAI_API_KEY) throw new Error('No model configured: set OPENAI_API_KEY (and OPENAI_BASE_URL)');

const apiKey = randomBytes(16).toString('hex');
const server = await buildServer(
  resolveServerConfig(process.env, {
    port: 0,
    dataDir: await mkdtemp(join(tmpdir(), 'x-mcp-face-example-')),
    apiKeys: [apiKey],
    logLevel: 'silent',
    // The agent `start_conversation` runs when the call brings no create body of its own.
    mcpConversation: {
      agent: {
        llm: { model: process.env.X_MODEL ?? 'gpt-4o-mini', base_url: process.env.OPENAI_BASE_URL ?? null },
        tools: [{ name: 'TerminalTool' }],
      },
    },
  }),
);
const { url } = await server.listen();

//#region client
const client = new Client({ name: 'mcp-face-example', version: '1.0.0' });
await client.connect(
  new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), {
    requestInit: { headers: { 'X-Session-API-Key': apiKey } },
    reconnectionOptions: {
      initialReconnectionDelay: 500,
      maxReconnectionDelay: 10_000,
      reconnectionDelayGrowFactor: 2,
      maxRetries: 10,
    },
  }),
);
const { tools } = await client.listTools();
console.log('tools', tools.map((tool) => tool.name).join(' '));

const started = await client.callTool({ name: 'start_conversation', arguments: {} });
const { conversation_id } = started.structuredContent as { conversation_id: string };
const done = await client.callTool(
  { name: 'run', arguments: { conversation_id, message: 'Print the date with the terminal, then finish.' } },
  undefined,
  // A progressToken is sent with the call: one notification per event of the run.
  { onprogress: ({ progress, message }) => console.log('progress', progress, message), resetTimeoutOnProgress: true },
);
const { status, final_answer } = done.structuredContent as { status: string; final_answer: string };
console.log('status', status);
console.log('answer', final_answer);

// The log itself, a page at a time, in OpenHands JSON.
const page = await client.readResource({ uri: `x://conversations/${conversation_id}/events?start=0&limit=100` });
const { items } = JSON.parse((page.contents[0] as { text: string }).text) as { items: { kind: string }[] };
console.log('events', items.map((event) => event.kind).join(' '));
await client.close();
//#endregion client

await server.close();

// The agent server in this process (what `x serve` runs) and a RemoteConversation driving it over HTTP and
// the WebSocket event stream, as a client on another machine would.
//
//   OPENAI_API_KEY=sk-... node dist/server-remote-client.js     (OPENAI_BASE_URL for another endpoint)
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer, resolveServerConfig } from '@x/server';
import { RemoteConversation } from '@x/server/client';

if (!process.env.OPENAI_API_KEY) throw new Error('No model configured: set OPENAI_API_KEY (and OPENAI_BASE_URL)');

//#region server
const apiKey = randomBytes(16).toString('hex'); // a session key: every request must carry it
const server = await buildServer(
  resolveServerConfig(process.env, {
    port: 0, // any free port on 127.0.0.1
    dataDir: await mkdtemp(join(tmpdir(), 'x-server-example-')),
    apiKeys: [apiKey],
    logLevel: 'silent',
  }),
);
const { url } = await server.listen();
console.log('server listening on', url);
//#endregion server

//#region client
const conversation = await RemoteConversation.create(url, {
  apiKey,
  agent: {
    // The server builds the agent: the model, its endpoint (else the server's default) and the built-in tools.
    llm: { model: process.env.X_MODEL ?? 'gpt-4o-mini', base_url: process.env.OPENAI_BASE_URL ?? null },
    tools: [{ name: 'TerminalTool' }],
  },
});
conversation.subscribe((event, index) => console.log('event', index ?? '-', event.kind));
await conversation.sendMessage('Write "hello" into greeting.txt with the terminal, then finish.');
const { status } = await conversation.run();
console.log('status:', status);
await conversation.close(); // closes the stream; the conversation lives on in the server
//#endregion client

await server.close();

// An AG-UI frontend's view of an x agent: the official AG-UI client (`@ag-ui/client`'s HttpAgent, what
// CopilotKit and other AG-UI frontends use) runs a thread on the server's AG-UI endpoint, and prints the
// AG-UI events as they stream: text messages, tool calls and their results, then RUN_FINISHED.
//
//   OPENAI_API_KEY=sk-... node dist/ag-ui-client.js     (OPENAI_BASE_URL for another endpoint)
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpAgent } from '@ag-ui/client';
import { buildServer, resolveServerConfig } from '@x/server';

if (!process.env.OPENAI_API_KEY) throw new Error('No model configured: set OPENAI_API_KEY (and OPENAI_BASE_URL)');

const apiKey = randomBytes(16).toString('hex');
const server = await buildServer(
  resolveServerConfig(process.env, {
    port: 0,
    dataDir: await mkdtemp(join(tmpdir(), 'x-ag-ui-example-')),
    apiKeys: [apiKey],
    logLevel: 'silent',
  }),
);
const { url } = await server.listen();

//#region agent
const agent = new HttpAgent({ url: `${url}/api/ag-ui`, headers: { 'X-Session-API-Key': apiKey } });
agent.subscribe({ onEvent: ({ event }) => console.log('ag-ui', event.type) });
agent.addMessage({ id: randomUUID(), role: 'user', content: 'Print the date with the terminal, then finish.' });
await agent.runAgent({
  // The thread is new: its create body, as POST /api/conversations takes it.
  forwardedProps: {
    conversation: {
      agent: {
        llm: { model: process.env.X_MODEL ?? 'gpt-4o-mini', base_url: process.env.OPENAI_BASE_URL ?? null },
        tools: [{ name: 'TerminalTool' }],
      },
    },
  },
});
for (const message of agent.messages) console.log('message', message.role);
//#endregion agent

await server.close();

// An AG-UI frontend's view of an x agent: the official AG-UI client (`@ag-ui/client`'s HttpAgent, what
// CopilotKit and other AG-UI frontends use) runs a thread on the server's AG-UI endpoint, and prints the
// AG-UI events as they stream: text messages token by token (the model streams), tool calls and their results,
// then RUN_FINISHED. It also offers the model a frontend tool, `notify_user`, that this client runs itself: the
// run ends at its call, and the next run sends the result back. The client shares state with the agent (the
// conversation's session state) and gives it context for the run: both reach the model.
//
//   OPENAI_API_KEY=sk-... node dist/ag-ui-client.js     (OPENAI_BASE_URL for another endpoint)
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpAgent, type Tool, type ToolCall } from '@ag-ui/client';
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
/** A frontend tool: the model may call it, this client runs it. */
const notifyUser: Tool = {
  name: 'notify_user',
  description: "Shows a notification in the user's browser",
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};
const agent = new HttpAgent({ url: `${url}/api/ag-ui`, headers: { 'X-Session-API-Key': apiKey } });
agent.subscribe({ onEvent: ({ event }) => console.log('ag-ui', event.type) });
// Shared state: recorded in the conversation (its session state), shown to the model, streamed back as patches.
agent.setState({ user: { name: 'Ada', plan: 'pro' } });
agent.addMessage({
  id: randomUUID(),
  role: 'user',
  content: 'Print the date with the terminal, tell me with notify_user, then finish.',
});
await agent.runAgent({
  tools: [notifyUser],
  // Context for this run: on the user message the model reads.
  context: [{ description: "The user's time zone", value: 'Europe/London' }],
  // The thread is new: its create body, as POST /api/conversations takes it. `stream`: token deltas.
  forwardedProps: {
    conversation: {
      agent: {
        llm: {
          model: process.env.X_MODEL ?? 'gpt-4o-mini',
          base_url: process.env.OPENAI_BASE_URL ?? null,
          stream: true,
        },
        tools: [{ name: 'TerminalTool' }],
      },
    },
  },
});
// A run that ended at calls of the frontend tool: run them here, send their results, and go on.
for (let calls = unansweredCalls(); calls.length > 0; calls = unansweredCalls()) {
  for (const call of calls) {
    console.log('notify_user:', JSON.parse(call.function.arguments).text);
    agent.addMessage({ id: randomUUID(), role: 'tool', toolCallId: call.id, content: 'The user saw it.' });
  }
  await agent.runAgent({ tools: [notifyUser] });
}
for (const message of agent.messages) console.log('message', message.role);
console.log('state', JSON.stringify(agent.state));

function unansweredCalls(): ToolCall[] {
  const answered = new Set(agent.messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
  return agent.messages
    .flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []))
    .filter((call) => call.function.name === notifyUser.name && !answered.has(call.id));
}
//#endregion agent

await server.close();

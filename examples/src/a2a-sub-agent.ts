// A remote A2A agent as a sub-agent: the `delegate` tool spawns a connection to an agent served over A2A (here the
// x server's own A2A face, in this process; any A2A v1.0 agent works) and delegates a task to it; the remote's
// streamed answer comes back as the observation. Uses `@a2a-js/sdk`'s client (an optional peer of @x/agent).
//
//   OPENAI_API_KEY=sk-... node dist/a2a-sub-agent.js     (OPENAI_BASE_URL for another endpoint)
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, Conversation, createA2aSubAgentType, createDelegateTool, resolveLLMFromEnv } from '@x/agent';
import { buildServer, resolveServerConfig } from '@x/server';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined) throw new Error('No model configured: set OPENAI_API_KEY (and OPENAI_BASE_URL)');

// The remote: an agent server whose A2A tasks run an agent with no tools but finish.
const remote = await buildServer(
  resolveServerConfig(process.env, {
    port: 0,
    dataDir: await mkdtemp(join(tmpdir(), 'x-a2a-remote-example-')),
    logLevel: 'silent',
    a2aConversation: {
      agent: {
        llm: { model: process.env.X_MODEL ?? 'gpt-4o-mini', base_url: process.env.OPENAI_BASE_URL ?? null },
        tools: [],
      },
    },
  }),
);
const { url } = await remote.listen();

//#region delegate
const delegate = createDelegateTool({
  agentTypes: {
    // The card is read from `${url}/.well-known/agent-card.json` when the model spawns a `remote` sub-agent.
    remote: createA2aSubAgentType({ url, description: 'A remote agent that answers questions' }),
  },
});
const parent = await Conversation.create({
  agent: new Agent({ llm, tools: [delegate] }),
  workspace: await mkdtemp(join(tmpdir(), 'x-a2a-parent-example-')),
  onEvent: (event) => {
    if (event.kind === 'ObservationEvent' && event.tool_name === 'delegate') {
      console.log(
        'delegate observation:',
        event.observation.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
      );
    }
  },
});
//#endregion delegate
await parent.sendMessage('Spawn a "remote" sub-agent named "far", ask it for the capital of Peru, and report it.');
const result = await parent.run();
console.log('status:', result.status);
await parent.close();
await remote.close();

// The tools of an MCP server (here a local stdio one, mcp-calc-server.js beside this file) given to the agent.
// The server is started with the conversation and stopped by close(); it gets a minimal environment, never
// the host's API keys.
//
//   OPENAI_API_KEY=sk-... node dist/mcp-stdio.js
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, Conversation, resolveLLMFromEnv } from '@x/agent';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');

//#region agent
const serverScript = fileURLToPath(new URL('./mcp-calc-server.js', import.meta.url));
// The server runs in the agent's sandbox, which sees only the workspace and the system: its script and the
// packages it imports are outside, so its entry names them as readable (x's `sandbox` field of a server entry):
// the script's folder and every node_modules folder Node would look in from there.
const readable = [dirname(serverScript)];
for (let dir = dirname(serverScript); dir !== dirname(dir); dir = dirname(dir)) {
  if (existsSync(join(dir, 'node_modules'))) readable.push(join(dir, 'node_modules'));
}
const agent = new Agent({
  llm,
  // The reference's mcp_config shape: server name -> { command, args, env, cwd } (stdio) or { url, headers }.
  mcpConfig: {
    mcpServers: { calc: { command: process.execPath, args: [serverScript], sandbox: { readablePaths: readable } } },
  },
});
//#endregion agent

const conversation = await Conversation.create({
  agent,
  onEvent: (event) => {
    if (event.kind === 'ConversationErrorEvent') console.log('error:', event.code, event.detail);
    if (event.kind === 'ActionEvent') console.log('tool call:', event.tool_name, JSON.stringify(event.action));
    if (event.kind === 'ObservationEvent')
      console.log(
        'observation:',
        event.observation.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
      );
  },
});
await conversation.sendMessage('What is 2 + 3? Use the add tool.');
const result = await conversation.run();
console.log('status:', result.status);
await conversation.close(); // stops the MCP server

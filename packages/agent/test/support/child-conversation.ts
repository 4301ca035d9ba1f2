// Runs a conversation in its own OS process so tests can kill or restart it. Configuration comes
// from argv: <baseURL> <persistenceDir> <workspace> <conversationId> <create|resume> [message].
import { Agent, Conversation, createOpenAILLM, defaultTools } from '../../src/index.js';

const [baseURL, persistenceDir, workspace, id, mode, message] = process.argv.slice(2);
if (!baseURL || !persistenceDir || !workspace || !id || !mode) {
  console.error('usage: child-conversation <baseURL> <persistenceDir> <workspace> <id> <create|resume> [message]');
  process.exit(2);
}
const agent = new Agent({
  llm: createOpenAILLM({ model: 'scripted', baseURL, apiKey: 'sk-test', maxRetries: 0 }),
  tools: defaultTools(),
});
const options = { agent, workspace, persistenceDir, durability: 'none' as const };
const conversation =
  mode === 'create' ? await Conversation.create({ ...options, id }) : await Conversation.resume(id, options);
conversation.subscribe((event) => {
  process.stdout.write(`${event.kind}\n`);
  if (process.env.X_PAUSE_AFTER === event.kind) void conversation.pause();
});
if (message) await conversation.sendMessage(message);
const result = await conversation.run();
process.stdout.write(`RESULT ${result.status}\n`);
await conversation.close();

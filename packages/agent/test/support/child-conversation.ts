// Runs a conversation in its own OS process so tests can kill or restart it. Configuration comes
// from argv: <baseURL> <persistenceDir> <workspace> <conversationId> <create|resume> [message].
import {
  Agent,
  Conversation,
  ConversationAlreadyRunningError,
  createOpenAILLM,
  defaultTools,
} from '../../src/index.js';

const [baseURL, persistenceDir, workspace, id, mode, message] = process.argv.slice(2);
if (!baseURL || !persistenceDir || !workspace || !id || !mode) {
  console.error('usage: child-conversation <baseURL> <persistenceDir> <workspace> <id> <create|resume> [message]');
  process.exit(2);
}
const agent = new Agent({
  llm: createOpenAILLM({ model: 'scripted', baseURL, apiKey: 'sk-test', maxRetries: 0 }),
  tools: defaultTools(),
});
const ttl = process.env.X_LEASE_TTL_MS;
const options = {
  agent,
  workspace,
  persistenceDir,
  durability: 'none' as const,
  ...(ttl === undefined ? {} : { leaseTtlMs: Number(ttl) }),
  ...(process.env.X_LEASE_WAIT_MS === undefined ? {} : { leaseWaitMs: Number(process.env.X_LEASE_WAIT_MS) }),
};
const conversation =
  mode === 'create' ? await Conversation.create({ ...options, id }) : await Conversation.resume(id, options);
conversation.subscribe((event) => {
  process.stdout.write(`${event.kind}\n`);
  if (process.env.X_PAUSE_AFTER === event.kind) void conversation.pause();
});
if (message) await conversation.sendMessage(message);
process.stdout.write('RUNNING\n');
try {
  const result = await conversation.run();
  process.stdout.write(`RESULT ${result.status}\n`);
} catch (error) {
  if (!(error instanceof ConversationAlreadyRunningError)) throw error;
  // What `x run --resume` in a second terminal reports: the conversation and who runs it.
  process.stdout.write(`REFUSED ${error.code} ${JSON.stringify({ id: error.conversationId, owner: error.owner })}\n`);
  process.stdout.write(`MESSAGE ${error.message}\n`);
  process.exitCode = 3;
}
await conversation.close();

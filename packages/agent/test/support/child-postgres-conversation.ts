// Runs a conversation on PostgreSQL (events, snapshot and lease) in its own OS process so a test can
// SIGKILL its owner mid-run. argv: <baseURL> <databaseURL> <workspace> <conversationId> <message>.
import { connectPostgres, createPostgresFileStore, PostgresEventLog, PostgresLeases } from '@x/store-postgres';
import { Agent, Conversation, createOpenAILLM, defaultTools } from '../../src/index.js';

const [baseURL, databaseUrl, workspace, id, message] = process.argv.slice(2);
if (!baseURL || !databaseUrl || !workspace || !id || !message) {
  console.error('usage: child-postgres-conversation <baseURL> <databaseURL> <workspace> <id> <message>');
  process.exit(2);
}
const database = await connectPostgres({ url: databaseUrl, maxConnections: 3 });
const conversation = await Conversation.create({
  id,
  agent: new Agent({
    llm: createOpenAILLM({ model: 'scripted', baseURL, apiKey: 'sk-test', maxRetries: 0 }),
    tools: defaultTools(),
  }),
  workspace,
  store: createPostgresFileStore(database),
  openEventLog: ({ conversationId }) => PostgresEventLog.open(database, { logId: conversationId }),
  leases: new PostgresLeases(database, { owner: `child-${process.pid}`, ttlMs: 3000 }),
});
conversation.subscribe((event) => process.stdout.write(`${event.kind}\n`));
await conversation.sendMessage(message);
const result = await conversation.run();
process.stdout.write(`RESULT ${result.status}\n`);
await conversation.close();
await database.close();

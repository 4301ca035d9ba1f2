// A conversation in its own process that waits for confirmation, is approved, and runs the approved action, so
// tests can kill it (X_TEST_CRASH_POINT) anywhere between the approval and the observation.
// argv: <baseURL> <persistenceDir> <workspace> <conversationId>
import { Agent, Conversation, createOpenAILLM } from '../../src/index.js';
import { effectTool, testCrashPoint } from './approval-tools.js';

const [baseURL, persistenceDir, workspace, id] = process.argv.slice(2);
if (!baseURL || !persistenceDir || !workspace || !id) {
  console.error('usage: child-approval <baseURL> <persistenceDir> <workspace> <id>');
  process.exit(2);
}
const agent = new Agent({
  llm: createOpenAILLM({ model: 'scripted', baseURL, apiKey: 'sk-test', maxRetries: 0 }),
  tools: [effectTool],
});
const conversation = await Conversation.create({
  id,
  agent,
  workspace,
  persistenceDir,
  durability: 'none',
  leaseTtlMs: Number(process.env.X_LEASE_TTL_MS ?? 15_000),
  confirmationPolicy: { kind: 'AlwaysConfirm' },
});
conversation.subscribe((event) => {
  process.stdout.write(`${event.kind}\n`);
  if (event.kind === 'ObservationEvent') testCrashPoint('after-observation');
});
await conversation.sendMessage('do it');
const waiting = await conversation.run();
process.stdout.write(`WAITING ${waiting.status}\n`);
const [action] = await conversation.pendingActions();
const decision =
  process.env.X_TEST_EDIT_LABEL === undefined
    ? { kind: 'approve' as const }
    : { kind: 'approve' as const, arguments: { label: process.env.X_TEST_EDIT_LABEL } };
await conversation.decide([{ action_id: action!.id, decision }], { principal: 'tester' });
process.stdout.write('APPROVED\n');
const result = await conversation.run();
process.stdout.write(`RESULT ${result.status}\n`);
await conversation.close();

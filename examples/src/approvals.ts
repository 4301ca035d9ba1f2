// Approvals: a rule approves safe calls by argument pattern, a person decides the rest one by one (here: denies
// with a reason the model sees), and every decision is recorded once with who decided.
//
//   OPENAI_API_KEY=sk-... node dist/approvals.js      (OPENAI_BASE_URL for any OpenAI-compatible endpoint)
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, approvalRulesSchema, Conversation, defineTool, readDecision, resolveLLMFromEnv } from '@x/agent';
import { z } from 'zod';

const sendEmail = defineTool({
  name: 'send_email',
  description: 'Send an email.',
  parameters: z.object({ to: z.string(), body: z.string() }),
  execute: ({ to }) => ({ content: `sent to ${to}` }),
});

// Rules are zod-validated config: the first rule that applies decides.
const approvalRules = approvalRulesSchema.parse([
  // An approving pattern matches the whole value: one internal address, never a list with an outside one in it.
  { name: 'internal-mail', tool: 'send_email', arguments: { to: '[^@,;\\s]+@example\\.com' }, status: 'approved' },
  { tool: 'send_email', status: 'user-approval' },
]);

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined) throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY)');
const conversation = await Conversation.create({
  agent: new Agent({ llm, tools: [sendEmail] }),
  persistenceDir: await mkdtemp(join(tmpdir(), 'x-approvals-example-')),
  approvalRules,
});
await conversation.sendMessage('Email bob@elsewhere.org that the build is green.');
let result = await conversation.run();
console.log('status:', result.status);
for (const action of await conversation.pendingActions()) {
  const [record] = await conversation.decide(
    [{ action_id: action.id, decision: { kind: 'deny', reason: 'Only internal mail today.' } }],
    { principal: 'example-user' },
  );
  console.log(`decision: ${record?.decision.kind} by ${record?.principal}`);
  console.log(
    'recorded:',
    (await readDecision(conversation.store, conversation.directory, action.id))?.decided_at !== undefined,
  );
}
result = await conversation.run();
console.log('status:', result.status);
await conversation.close();

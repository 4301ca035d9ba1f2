// Handoff: control of a conversation passes between agents (each its own prompt, tools and model). With
// `agents`, every agent gets a `transfer_to_agent({agent_name, reason?})` tool listing the others; the agent in
// control is recorded in the log, so a resume given the same agents continues with it.
//
//   OPENAI_API_KEY=sk-... node dist/handoff.js
import { Agent, Conversation, resolveLLMFromEnv } from '@x/agent';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');

//#region handoff
const triage = new Agent({
  name: 'triage',
  description: 'Reads the request and passes it to the right specialist.',
  llm,
  tools: [],
  systemPrompt: 'You are the triage agent. Transfer billing questions to the billing agent; do not answer them.',
});
const billing = new Agent({
  name: 'billing',
  description: 'Answers questions about invoices and refunds.',
  // Each agent may bring its own model; this one uses the same.
  llm,
  tools: [],
  systemPrompt: 'You are the billing agent. Answer the billing question briefly, then call finish.',
});
const agents = { triage, billing };
const conversation = await Conversation.create({
  agent: triage,
  agents,
  onEvent: (event) => {
    if (event.kind === 'ConversationStateUpdateEvent' && event.key === 'active_agent') {
      console.log('control passed:', JSON.stringify(event.value));
    }
  },
});
//#endregion handoff
await conversation.sendMessage('Why was I charged twice on my last invoice?');
const result = await conversation.run();
console.log('status:', result.status);
console.log('agent in control:', result.agent);
await conversation.close();

// A resume with the same agents continues with the agent the log says is in control.
const resumed = await Conversation.resume(conversation.id, { agent: triage, agents });
console.log('after resume:', resumed.agent.name);
await resumed.close();

// Sub-agents: the `delegate` tool spawns named child conversations, runs their tasks in parallel and returns
// their answers to the parent. Children are persisted beside the parent (`<parent>/subagents/<child id>/`).
//
//   OPENAI_API_KEY=sk-... node dist/sub-agents.js
import { Agent, Conversation, createDelegateTool, listSubConversationIds, resolveLLMFromEnv } from '@x/agent';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');

//#region delegate
const delegate = createDelegateTool({
  agentTypes: {
    // Each child gets its own agent, on the parent's model (`createAgent` receives it), with no tools but finish.
    default: { createAgent: (model) => new Agent({ llm: model, tools: [] }), description: 'Answers a question' },
  },
});
const parent = await Conversation.create({
  agent: new Agent({ llm, tools: [delegate] }),
  onEvent: (event) => {
    if (event.kind === 'ActionEvent') console.log('tool call:', event.tool_name, JSON.stringify(event.action));
    if (event.kind === 'ObservationEvent' && event.tool_name === 'delegate') {
      console.log(
        'delegate observation:',
        event.observation.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
      );
    }
  },
});
//#endregion delegate
await parent.sendMessage(
  'Spawn two sub-agents, "math" and "trivia"; ask math for 6*7 and trivia for the capital of Peru; report both.',
);
const result = await parent.run();
console.log('status:', result.status);
const children = await listSubConversationIds(parent.store, parent.directory);
console.log('children:', children.length, children.join(' '));
await parent.close();

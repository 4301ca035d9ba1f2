// LangChain messages, both ways: a conversation's events as @langchain/core messages (HumanMessage, AIMessage with
// tool_calls, ToolMessage, SystemMessage) and in LangChain's stored JSON; and a LangChain history imported as events,
// so it can be continued here. @langchain/core is an optional peer of @x/agent: install it to use these.
//
//   OPENAI_API_KEY=sk-... node dist/langchain-messages.js
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import {
  Agent,
  Conversation,
  eventsToLangChainMessages,
  fromLangChainMessages,
  resolveLLMFromEnv,
  toLangChainStoredMessages,
} from '@x/agent';
import { eventsToMessages } from '@x/events';
import { createMemoryFileStore } from '@x/store';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');

//#region to-langchain
const conversation = await Conversation.create({
  agent: new Agent({ llm, tools: [] }),
  store: createMemoryFileStore(),
});
await conversation.sendMessage('What is 2 + 2?');
await conversation.run();
const events = await conversation.activeBranch();
const messages = await eventsToLangChainMessages(events);
console.log('langchain:', messages.map((message) => message.constructor.name).join(', '));
// What LangChain's mapChatMessagesToStoredMessages writes, ready to save (x messages --format langchain prints it).
const stored = await toLangChainStoredMessages(eventsToMessages(events));
console.log('stored types:', stored.map((message) => message.type).join(', '));
await conversation.close();
//#endregion to-langchain

//#region from-langchain
const history = [
  new HumanMessage('List the files.'),
  new AIMessage({ content: '', tool_calls: [{ id: 'call_1', name: 'terminal', args: { command: 'ls' } }] }),
  new ToolMessage({ content: 'README.md', tool_call_id: 'call_1' }),
  new AIMessage('There is one file: README.md.'),
];
const imported = fromLangChainMessages(history);
console.log('events:', imported.map((event) => event.kind).join(', '));
//#endregion from-langchain

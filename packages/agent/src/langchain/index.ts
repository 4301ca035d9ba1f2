export { fromLangChainMessages } from './from-langchain-messages.js';
export type {
  LangChainContentBlock,
  LangChainInvalidToolCall,
  LangChainMessage,
  LangChainStoredMessage,
  LangChainToolCall,
} from './langchain-message.js';
export {
  eventsToLangChainMessages,
  fromLangChainStoredMessages,
  toLangChainStoredMessages,
} from './stored-messages.js';
export { toLangChainMessages } from './to-langchain-messages.js';

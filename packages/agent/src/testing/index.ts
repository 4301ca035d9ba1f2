export {
  type ScriptedCompletion,
  type ScriptedContextOverflow,
  type ScriptedError,
  type ScriptedLLMServer,
  type ScriptedReply,
  type ScriptedReplyFunction,
  type ScriptedRequestBody,
  type ScriptedToolCall,
  type ScriptedUsage,
  startScriptedLLMServer,
} from './scripted-llm-server.js';

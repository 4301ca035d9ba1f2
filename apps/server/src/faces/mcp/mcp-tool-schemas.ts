import { z } from 'zod';

const conversationId = z
  .string()
  .min(1)
  .describe('The conversation id `start_conversation` or `list_conversations` gave');
const message = z.string().trim().min(1).describe("The user's message to the agent");

export const startConversationArgumentsSchema = z.strictObject({
  message: message.optional().describe('A first user message, recorded without running (call `run` next)'),
  conversation: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "The server's conversation create body (StartConversationRequest: agent, llm, tools, workspace); default: the server's configured agent",
    ),
});

export const sendMessageArgumentsSchema = z.strictObject({ conversation_id: conversationId, message });

export const runArgumentsSchema = z.strictObject({
  conversation_id: conversationId,
  message: message.optional().describe('A user message to record before running'),
});

export const getConversationArgumentsSchema = z.strictObject({ conversation_id: conversationId });

export const listConversationsArgumentsSchema = z.strictObject({
  limit: z.number().int().min(1).max(200).optional().describe('Page size (default 50)'),
  cursor: z.string().optional().describe('The `next_cursor` of the previous page'),
});

export const confirmActionsArgumentsSchema = z.strictObject({
  conversation_id: conversationId,
  approve: z.boolean().describe('true runs the pending actions; false rejects them and the agent is told why'),
  reason: z
    .string()
    .optional()
    .describe(
      'Why they were rejected (with approve: false); not used with approve: true (the answer says so in `note`)',
    ),
});

import { randomUUID } from 'node:crypto';
import { AgentError } from '@x/agent';
import type { FastifyBaseLogger } from 'fastify';
import { errorStatus } from '../../api/agent-error-status.js';
import { type StartConversationRequest, startConversationRequestSchema } from '../../api/request-schemas.js';
import { assertMayDecide } from '../../conversations/approval-gate.js';
import type { ConversationListing } from '../../conversations/conversation-listing.js';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import type { ManagedConversation } from '../../conversations/managed-conversation.js';
import { runLogEntries } from '../../conversations/run-log-entries.js';
import { agentFinalResponse } from '../../events/event-search.js';
import { WorkspaceGoneError } from '../../workspace/workspace-gone-error.js';
import { listedSummary } from './listed-summary.js';
import type { McpConversation, McpConversationHost } from './mcp-host.js';
import { McpToolCallError } from './mcp-tool-call-error.js';

export interface ManagerHostOptions {
  /** The index pages are read from (the single server's in memory, or replicas' PostgreSQL table). */
  listing: ConversationListing;
  /** The create body of conversations `start_conversation` makes without one (`mcpConversation`). */
  defaultConversation?: StartConversationRequest | undefined;
  logger: FastifyBaseLogger;
}

const userMessage = (text: string) => ({
  role: 'user' as const,
  content: [{ cache_prompt: false, type: 'text' as const, text }],
  thinking_blocks: [],
});

/**
 * The agent's refusals of the caller (outside `approvalDeciders`, deciding on pending actions) or of the conversation's
 * state (a run already going), as the face's refusals naming their reason (as REST answers them 403 and 409), not a
 * tool failure, which a client cannot tell from a broken conversation: the caller's as a JSON-RPC error, the state's as
 * a tool result with `isError` and `structuredContent.reason` (`McpToolCallError.isExecutionError`).
 */
async function refusing<T>(conversationId: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (
      AgentError.isInstance(error) &&
      (error.code === 'principal_not_allowed' || error.code === 'conversation_running')
    ) {
      throw new McpToolCallError(error.code, error.message, { conversation_id: conversationId });
    }
    throw error;
  }
}

/** One conversation of the server, for the MCP tools. */
function managed(conversation: ManagedConversation, logger: FastifyBaseLogger): McpConversation {
  return {
    id: conversation.id,
    get isRunning() {
      return conversation.isRunning;
    },
    async view() {
      // Deleted while a call went on (a run the delete stopped reads paused): there is no state left to report.
      if (conversation.isDeleted) {
        throw new McpToolCallError('conversation_deleted', `Conversation '${conversation.id}' was deleted`, {
          conversation_id: conversation.id,
        });
      }
      const open = await conversation.open();
      const pending = await open.pendingActions();
      return {
        conversation_id: conversation.id,
        status: open.state.execution_status,
        final_answer: await agentFinalResponse(conversation.log, logger),
        pending_actions: pending.map((action) => ({
          id: action.id,
          tool_name: action.tool_name,
          tool_call_id: action.tool_call_id,
          arguments: action.action ?? null,
        })),
        event_count: conversation.log.length,
      };
    },
    async sendMessage(text) {
      await refusing(conversation.id, () => conversation.sendMessage(userMessage(text), { run: false }));
    },
    async rejectPendingActions(reason) {
      await refusing(conversation.id, async () => {
        const principal = assertMayDecide();
        await (await conversation.open()).rejectPendingActions(reason, principal === undefined ? {} : { principal });
      });
    },
    async interrupt() {
      await conversation.interrupt();
    },
    async followRun({ signal, onEvent }) {
      const fromIndex = conversation.log.length;
      // Accepting runs the pending actions (when waiting for confirmation) or the new messages, unless a run is going.
      await refusing(conversation.id, () => conversation.acceptPendingActions());
      for await (const { event, index } of runLogEntries(conversation, fromIndex, signal)) onEvent(event, index);
    },
    async state() {
      await conversation.open();
      return conversation.fullState();
    },
    async events(start, limit) {
      await conversation.open();
      const total = conversation.log.length;
      return { events: start >= total ? [] : await conversation.log.range(start, start + limit), total };
    },
    watch(listener, options) {
      // A listener of published events keeps the conversation open (not released when idle), so the log watched
      // stays the one its appends go to; as for an event socket.
      const release = conversation.onPublished(() => undefined);
      const stop = conversation.log.listen(conversation.log.length, () => listener(), {
        onError: (error) => logger.warn({ conversationId: conversation.id, err: error }, 'mcp: watching a log failed'),
      });
      const onDeleted = options?.onDeleted;
      const unDeleted = onDeleted === undefined ? () => undefined : conversation.onDeleted(onDeleted);
      return () => {
        unDeleted();
        stop();
        release();
      };
    },
  };
}

/** The server's conversations (its ConversationManager) as the MCP face sees them. */
export function createManagerHost(manager: ConversationManager, options: ManagerHostOptions): McpConversationHost {
  return {
    acceptsCreateBody: true,
    async create(createBody) {
      const body = createBody ?? options.defaultConversation;
      if (body === undefined) {
        throw new McpToolCallError(
          'no_default_agent',
          'This server has no default agent for MCP (config mcpConversation): pass the conversation create body (agent, llm, tools) as arguments.conversation',
          { path: 'arguments.conversation' },
        );
      }
      const parsed = startConversationRequestSchema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const path = ['arguments', 'conversation', ...(issue?.path ?? [])].join('.');
        throw new McpToolCallError('invalid_arguments', `start_conversation: ${path}: ${issue?.message ?? 'invalid'}`, {
          tool: 'start_conversation',
          path,
        });
      }
      const created = await manager
        .create({ ...parsed.data, conversation_id: randomUUID(), initial_message: null })
        .catch((error: unknown) => {
          const status = errorStatus(error);
          // A deleted workspace root is the server's failure (reported as one), not the arguments'.
          if (status !== undefined && status < 500 && !WorkspaceGoneError.isInstance(error)) {
            throw new McpToolCallError('invalid_arguments', `start_conversation: ${(error as Error).message}`, {
              tool: 'start_conversation',
              path: 'arguments.conversation',
            });
          }
          throw error;
        });
      return managed(created.conversation, options.logger);
    },
    async find(id) {
      const conversation = await manager.get(id).catch(() => undefined);
      if (conversation === undefined) return undefined;
      await conversation.open();
      return managed(conversation, options.logger);
    },
    onListChanged(listener) {
      return manager.onListChanged(listener);
    },
    async page({ after, limit }) {
      // Newest first by creation, which no status change or new message reorders while a client pages.
      const page = await options.listing.page({ sortOrder: 'CREATED_AT_DESC', after, limit });
      const listed = await Promise.all(page.ids.map((hex) => manager.get(hex).then(listedSummary, () => undefined)));
      return { conversations: listed.filter((summary) => summary !== undefined), next: page.end };
    },
  };
}

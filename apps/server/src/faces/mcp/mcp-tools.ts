import type { AnyEvent } from '@x/events';
import { z } from 'zod';
import { clientText } from '../../internal/client-text.js';
import type { McpConversation, McpConversationHost, McpConversationView } from './mcp-host.js';
import { pageCursor, pagePosition } from './mcp-page-cursor.js';
import { progressMessageOf } from './mcp-progress.js';
import { McpToolCallError } from './mcp-tool-call-error.js';
import {
  confirmActionsArgumentsSchema,
  getConversationArgumentsSchema,
  listConversationsArgumentsSchema,
  runArgumentsSchema,
  sendMessageArgumentsSchema,
  startConversationArgumentsSchema,
} from './mcp-tool-schemas.js';

/** A tool as `tools/list` describes it. */
export interface McpToolDescription {
  name: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  annotations?: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

/** What `tools/call` answers: the result as JSON text and as structured content. */
export interface McpToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
}

export interface McpToolCallContext {
  /** The request's cancellation (the client cancelled, or went away): ends waiting, never the run. */
  signal: AbortSignal;
  /** Present when the client gave a progressToken: called once per event of a run. */
  progress?: ((update: { progress: number; message: string }) => void) | undefined;
}

const DEFAULT_PAGE_SIZE = 50;

interface ToolSpec {
  schema: z.ZodObject;
  description: string;
  annotations: NonNullable<McpToolDescription['annotations']>;
}

const TOOLS = {
  start_conversation: {
    schema: startConversationArgumentsSchema,
    description:
      'Start a conversation with the agent (optionally recording a first message). Returns its conversation_id; call `run` to let the agent work.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  send_message: {
    schema: sendMessageArgumentsSchema,
    description: 'Record a user message in a conversation without running the agent.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  run: {
    schema: runArgumentsSchema,
    description:
      'Run the agent (after recording `message`, if given) until it finishes, needs a confirmation, or stops; returns the state and final answer. Refused while actions wait for confirmation: answer them with `confirm_actions`. Sends progress notifications, one per event (`progress`: the log index of the event + 1), when the request has a progressToken. Cancelling the request stops the wait, not the run (`interrupt` stops it).',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  },
  interrupt: {
    schema: getConversationArgumentsSchema,
    description:
      "Stop the agent's run now: the model call and running tools are aborted and the conversation is paused (with no run going, it is paused). `run` goes on from there. Returns the state.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  get_conversation: {
    schema: getConversationArgumentsSchema,
    description: "A conversation's status, final answer and pending actions.",
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  list_conversations: {
    schema: listConversationsArgumentsSchema,
    description: 'The conversations, a page at a time.',
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  confirm_actions: {
    schema: confirmActionsArgumentsSchema,
    description:
      "Answer the actions a conversation waits to have confirmed: approve runs them, reject tells the agent (with `reason`); then the run goes on as with `run`. A `reason` given with approve is not used (the answer's `note` says so).",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  },
} satisfies Record<string, ToolSpec>;

export type McpToolName = keyof typeof TOOLS;

/** The tools of the MCP face, for `tools/list`. Without create bodies, `start_conversation` takes no `conversation`. */
export function mcpToolDescriptions(host: Pick<McpConversationHost, 'acceptsCreateBody'>): McpToolDescription[] {
  return Object.entries(TOOLS).map(([name, spec]) => {
    const schema =
      name === 'start_conversation' && !host.acceptsCreateBody
        ? startConversationArgumentsSchema.omit({ conversation: true })
        : spec.schema;
    const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
    return {
      name,
      description: spec.description,
      inputSchema: { ...inputSchema, type: 'object' },
      annotations: spec.annotations,
    };
  });
}

function parseArguments<T extends z.ZodObject>(tool: string, schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue === undefined || issue.path.length === 0 ? 'arguments' : `arguments.${issue.path.join('.')}`;
  throw new McpToolCallError('invalid_arguments', `${tool}: ${path}: ${issue?.message ?? 'invalid'}`, {
    tool,
    path,
  });
}

async function conversationOf(host: McpConversationHost, id: string): Promise<McpConversation> {
  const conversation = await host.find(id);
  if (conversation === undefined) {
    throw new McpToolCallError(
      'conversation_not_found',
      `No conversation '${clientText(id)}' here (see list_conversations)`,
      {
        conversation_id: id,
      },
    );
  }
  return conversation;
}

/**
 * Refuses `run` on a conversation waiting for confirmation, before its message is recorded: a run executes the
 * actions that wait (the REST API's run approves them, as the reference's does), so an MCP client asking to go on
 * with a new message ("no, don't") would approve what it never answered. `confirm_actions` decides them.
 */
async function refusePendingActions(conversation: McpConversation, id: string): Promise<void> {
  // A run going on is running its actions without results, not waiting for them: `run` follows it.
  if (conversation.isRunning) return;
  const view = await conversation.view();
  if (view.pending_actions.length === 0) return;
  const named = view.pending_actions.map((action) => `'${action.id}' (${action.tool_name})`).join(', ');
  throw new McpToolCallError(
    'pending_actions',
    `Conversation '${id}' waits for confirmation of ${view.pending_actions.length} action(s): ${named}; answer them with confirm_actions (approve runs them, a rejection tells the agent)`,
    { conversation_id: id, pending_action_ids: view.pending_actions.map((action) => action.id) },
  );
}

function result(value: McpConversationView | Record<string, unknown>): McpToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
    structuredContent: { ...value },
  };
}

/** What `confirm_actions` says of a `reason` given with `approve: true`. */
const REASON_NOT_USED =
  'reason was not used: approving records no reason (the agent is told a reason only when actions are rejected)';

function withNote(answer: McpToolResult, note: string): McpToolResult {
  return result({ ...answer.structuredContent, note });
}

/** Runs the conversation to its stop, reporting each event as progress; answers its view. */
async function runToStop(conversation: McpConversation, context: McpToolCallContext): Promise<McpToolResult> {
  // Progress is the log's length once the event is in it (its index + 1): derived from the log, it increases
  // with every event, and a client that lost some reads them from the events resource.
  const onEvent = (event: AnyEvent, index: number): void => {
    context.progress?.({ progress: index + 1, message: progressMessageOf(event) });
  };
  await conversation.followRun({ signal: context.signal, onEvent });
  return result(await conversation.view());
}

/**
 * Calls one tool of the MCP face. Arguments are validated here; every refusal is a McpToolCallError (the
 * protocol adapter sends a tool execution error as a tool result with `isError`, any other as a JSON-RPC error with
 * its code and `data.reason`).
 */
export async function callMcpTool(
  host: McpConversationHost,
  name: string,
  input: unknown,
  context: McpToolCallContext,
): Promise<McpToolResult> {
  switch (name as McpToolName) {
    case 'start_conversation': {
      const args = parseArguments(name, startConversationArgumentsSchema, input);
      if (args.conversation !== undefined && !host.acceptsCreateBody) {
        throw new McpToolCallError(
          'invalid_arguments',
          'start_conversation: arguments.conversation: this server runs its own configured agent and takes no create body',
          { tool: name, path: 'arguments.conversation' },
        );
      }
      const conversation = await host.create(args.conversation);
      if (args.message !== undefined) await conversation.sendMessage(args.message);
      return result(await conversation.view());
    }
    case 'send_message': {
      const args = parseArguments(name, sendMessageArgumentsSchema, input);
      const conversation = await conversationOf(host, args.conversation_id);
      await conversation.sendMessage(args.message);
      return result(await conversation.view());
    }
    case 'run': {
      const args = parseArguments(name, runArgumentsSchema, input);
      const conversation = await conversationOf(host, args.conversation_id);
      await refusePendingActions(conversation, args.conversation_id);
      if (args.message !== undefined) await conversation.sendMessage(args.message);
      return runToStop(conversation, context);
    }
    case 'interrupt': {
      const args = parseArguments(name, getConversationArgumentsSchema, input);
      const conversation = await conversationOf(host, args.conversation_id);
      await conversation.interrupt();
      return result(await conversation.view());
    }
    case 'get_conversation': {
      const args = parseArguments(name, getConversationArgumentsSchema, input);
      return result(await (await conversationOf(host, args.conversation_id)).view());
    }
    case 'list_conversations': {
      const args = parseArguments(name, listConversationsArgumentsSchema, input);
      // Only a `next_cursor` this tool gave: another list's cursor ends pages of another kind.
      const after = args.cursor === undefined ? undefined : pagePosition('list_conversations', args.cursor);
      if (args.cursor !== undefined && after === undefined) {
        throw new McpToolCallError(
          'invalid_arguments',
          `list_conversations: arguments.cursor: '${clientText(args.cursor)}' is not a cursor this server gave (see next_cursor)`,
          { tool: name, path: 'arguments.cursor' },
        );
      }
      const page = await host.page({ after, limit: args.limit ?? DEFAULT_PAGE_SIZE });
      return result({
        conversations: page.conversations,
        ...(page.next === undefined ? {} : { next_cursor: pageCursor('list_conversations', page.next) }),
      });
    }
    case 'confirm_actions': {
      const args = parseArguments(name, confirmActionsArgumentsSchema, input);
      const conversation = await conversationOf(host, args.conversation_id);
      const view = await conversation.view();
      if (view.pending_actions.length === 0) {
        throw new McpToolCallError(
          'no_pending_actions',
          `Conversation '${clientText(args.conversation_id)}' has no action waiting for confirmation (status '${view.status}')`,
          { conversation_id: args.conversation_id, status: view.status },
        );
      }
      if (!args.approve) {
        await conversation.rejectPendingActions(args.reason ?? 'The user rejected the action');
        return runToStop(conversation, context);
      }
      const answer = await runToStop(conversation, context);
      // An approval records no reason (as the REST route's accept and the reference): the caller learns that the one
      // it gave went nowhere rather than believing the agent was told.
      return args.reason === undefined ? answer : withNote(answer, REASON_NOT_USED);
    }
    default:
      throw new McpToolCallError(
        'unknown_tool',
        `No tool '${clientText(name)}' (the tools are: ${Object.keys(TOOLS).join(', ')})`,
        {
          tool: name,
        },
      );
  }
}

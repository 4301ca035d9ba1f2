import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CONVERSATION_ERRORS, errorResponses } from '../../api/response-schemas.js';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import { InvalidRequestError } from '../../conversations/errors/invalid-request-error.js';
import type { ManagedConversation } from '../../conversations/managed-conversation.js';
import { streamRun } from './agui-stream.js';
import { type AgUiRunInput, agUiRunInputSchema, confirmationDecision, userMessageText } from './run-input.js';

/** Where the AG-UI endpoint is mounted: an AG-UI `HttpAgent`'s `url`. */
export const AG_UI_PATH = '/api/ag-ui';

/** `Last-Event-ID`: the log index of the last event a reconnecting client received. */
function lastEventId(request: FastifyRequest): number | undefined {
  const header = request.headers['last-event-id'];
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header[0] : header;
  if (text === undefined || !/^(?:-1|\d{1,15})$/.test(text.trim())) {
    throw new InvalidRequestError(`Last-Event-ID must be a log index (an integer ≥ -1), got '${text}'`);
  }
  return Number(text.trim());
}

async function threadOf(manager: ConversationManager, input: AgUiRunInput): Promise<ManagedConversation> {
  const existing = await manager.get(input.threadId).catch((error: unknown) => {
    throw new InvalidRequestError(`threadId: ${(error as Error).message}`, { cause: error });
  });
  if (existing !== undefined) return existing;
  const create = input.forwardedProps?.conversation;
  if (create === undefined) {
    throw new InvalidRequestError(
      `threadId '${input.threadId}' is not a conversation of this server; to start one, pass its create body as forwardedProps.conversation`,
      { statusCode: 404 },
    );
  }
  const { conversation } = await manager.create({ ...create, conversation_id: input.threadId });
  return conversation;
}

/**
 * Applies what a run input brings: the answers to the interrupts of the last run (approve runs the pending
 * actions; any refusal rejects them, with its reason, and the run goes on so the model sees it), then the user
 * messages the conversation does not have yet (those after the last message whose id is one of the log's
 * events). Starts a run when there was anything to act on. Returns whether a run was started.
 */
async function applyInput(conversation: ManagedConversation, input: AgUiRunInput): Promise<boolean> {
  const open = await conversation.open();
  let act = false;
  if (input.resume !== undefined && input.resume.length > 0) {
    const pending = new Set((await open.pendingActions()).map((action) => action.id));
    const decisions = input.resume.map((entry) => {
      if (!pending.has(entry.interruptId)) {
        throw new InvalidRequestError(`resume: interrupt '${entry.interruptId}' is not pending in this thread`, {
          statusCode: 409,
        });
      }
      return confirmationDecision(entry);
    });
    const refusal = decisions.find((decision) => !decision.approved);
    if (refusal !== undefined) await open.rejectPendingActions(refusal.reason);
    act = true;
  }
  const known = input.messages.findLastIndex((message) => conversation.log.indexOf(message.id) >= 0);
  const fresh = input.messages.slice(known + 1).filter((message) => message.role === 'user');
  for (const message of fresh) {
    const text = userMessageText(message.content);
    if (text === '') continue;
    await conversation.sendMessage(
      { role: 'user', content: [{ cache_prompt: false, type: 'text', text }], thinking_blocks: [] },
      { run: false },
    );
    act = true;
  }
  if (act && !conversation.isRunning) await conversation.startRun();
  return act;
}

/**
 * The AG-UI face: `POST /api/ag-ui` takes an AG-UI `RunAgentInput` and answers with the run as server-sent AG-UI
 * events, built from the conversation's log (`agui-events.ts`). A request with `Last-Event-ID` reattaches to the
 * thread's run from that log index, sending nothing twice and skipping nothing.
 */
export function registerAgUiRoutes(fastify: FastifyInstance, manager: ConversationManager): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    AG_UI_PATH,
    {
      schema: {
        tags: ['ag-ui'],
        summary: 'Run the agent (AG-UI RunAgentInput in, AG-UI events out as server-sent events)',
        operationId: 'agUiRun',
        body: agUiRunInputSchema,
        response: {
          200: z.string().describe('A text/event-stream of AG-UI events (JSON in each `data:` line)'),
          ...errorResponses(CONVERSATION_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const reattach = lastEventId(request);
      const conversation = await threadOf(manager, input);
      const fromIndex = reattach === undefined ? conversation.log.length : reattach + 1;
      if (reattach === undefined) await applyInput(conversation, input);
      reply.hijack();
      const response = reply.raw;
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      });
      const gone = new AbortController();
      request.raw.once('close', () => gone.abort());
      response.once('close', () => gone.abort());
      try {
        await streamRun({
          conversation,
          threadId: input.threadId,
          runId: input.runId,
          fromIndex,
          response,
          signal: gone.signal,
        });
      } catch (error) {
        request.log.error({ err: error, conversationId: conversation.id }, 'ag-ui: streaming the run failed');
        if (!response.writableEnded) {
          response.write(`data: ${JSON.stringify({ type: 'RUN_ERROR', message: (error as Error).message })}\n\n`);
        }
      } finally {
        response.end();
      }
    },
  );
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CONVERSATION_ERRORS, errorResponses } from '../../api/response-schemas.js';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import { InvalidConversationIdError } from '../../conversations/errors/invalid-conversation-id-error.js';
import { InvalidRequestError } from '../../conversations/errors/invalid-request-error.js';
import type { ManagedConversation } from '../../conversations/managed-conversation.js';
import { clientText } from '../../internal/client-text.js';
import { AG_UI_PATH } from '../face-paths.js';
import { AgUiRunError } from './ag-ui-run-error.js';
import { sseFrames } from './agui-events.js';
import { streamRun } from './agui-stream.js';
import { applyRunInput } from './apply-run-input.js';
import { DeltaFeed } from './delta-feed.js';
import { errorTextOr } from './error-text.js';
import { type AgUiRunInput, agUiRunInputSchema } from './run-input.js';

export { AG_UI_PATH };

/** `Last-Event-ID`: the log index of the last event a reconnecting client received. */
function lastEventId(request: FastifyRequest): number | undefined {
  const header = request.headers['last-event-id'];
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header[0] : header;
  if (text === undefined || !/^(?:-1|\d{1,15})$/.test(text.trim())) {
    throw new InvalidRequestError(`Last-Event-ID must be a log index (an integer ≥ -1), got '${clientText(text)}'`);
  }
  return Number(text.trim());
}

export interface AgUiRoutesOptions {
  /** A thrown error's message as a client may read it (the server's paths hidden: security/server-path-hider.ts). */
  hidePaths?: (text: string) => Promise<string>;
}

/** The tool call ids the input's `role: "tool"` messages answer: results the client holds already. */
function clientResultsOf(input: AgUiRunInput): Set<string> {
  return new Set(
    input.messages.flatMap((message) =>
      message.role === 'tool' && typeof message.toolCallId === 'string' ? [message.toolCallId] : [],
    ),
  );
}

async function threadOf(manager: ConversationManager, input: AgUiRunInput): Promise<ManagedConversation> {
  // Only a malformed id is the request's fault (400 naming threadId); a store that fails stays a server error.
  const existing = await manager.get(input.threadId).catch((error: unknown) => {
    if (!InvalidConversationIdError.isInstance(error)) throw error;
    throw new InvalidRequestError(`threadId: ${error.message}`, { cause: error });
  });
  if (existing !== undefined) return existing;
  const create = input.forwardedProps?.conversation;
  if (create === undefined) {
    throw new InvalidRequestError(
      `threadId '${clientText(input.threadId)}' is not a conversation of this server; to start one, pass its create body as forwardedProps.conversation`,
      { statusCode: 404 },
    );
  }
  // The thread's messages are the input's `messages`: an `initial_message` of the create body would be recorded and run
  // on its own, a message the client's thread does not hold (and a retried turn would no longer match the log).
  const { conversation } = await manager.create({ ...create, conversation_id: input.threadId, initial_message: null });
  return conversation;
}

/**
 * The AG-UI face: `POST /api/ag-ui` takes an AG-UI `RunAgentInput` and answers with the run as server-sent AG-UI
 * events, built from the conversation's log (`agui-events.ts`) and the model's token deltas (`streamed-messages.ts`).
 * A request with `Last-Event-ID` reattaches to the thread's run from that log index (one past its last event is refused), sending nothing twice and
 * skipping nothing. A run input refused (its frontend tools or their results, its state, its context) gets a typed `RUN_ERROR` alone.
 */
export function registerAgUiRoutes(
  fastify: FastifyInstance,
  manager: ConversationManager,
  options: AgUiRoutesOptions = {},
): void {
  const hidePaths = options.hidePaths ?? (async (text: string) => text);
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
      const open = await conversation.open();
      if (reattach !== undefined && reattach >= conversation.log.length) {
        // An id this thread never gave out (another thread's, or made up): refused before a stream starts, where it
        // would fail after RUN_STARTED as a server error.
        throw new InvalidRequestError(
          `Last-Event-ID ${reattach} is past the last event of this thread (index ${conversation.log.length - 1})`,
        );
      }
      const fromIndex = reattach === undefined ? conversation.log.length : reattach + 1;
      // Taken with `fromIndex`, before the input is applied: its state change comes as a STATE_DELTA.
      const sharedState = { ...open.session.state };
      // Fed from before the input is applied: no token of the run it starts is missed.
      const deltas = new DeltaFeed(conversation);
      let refused: AgUiRunError | undefined;
      try {
        if (reattach === undefined) await applyRunInput(conversation, input, manager.clientTools);
      } catch (error) {
        if (!AgUiRunError.isInstance(error)) {
          deltas.stop();
          throw error;
        }
        refused = error;
      }
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
      if (refused !== undefined) {
        deltas.stop();
        response.end(sseFrames([{ type: 'RUN_ERROR', code: refused.code, message: refused.message }]));
        return;
      }
      try {
        await streamRun({
          deltas,
          conversation,
          threadId: input.threadId,
          runId: input.runId,
          fromIndex,
          sharedState,
          response,
          signal: gone.signal,
          clientResults: reattach === undefined ? clientResultsOf(input) : new Set(),
        });
      } catch (error) {
        request.log.error({ err: error, conversationId: conversation.id }, 'ag-ui: streaming the run failed');
        if (!response.writableEnded) {
          const thrown = error instanceof Error ? await hidePaths(error.message) : undefined;
          const message = errorTextOr(thrown, 'Streaming the run failed');
          response.write(sseFrames([{ type: 'RUN_ERROR', code: 'stream_failed', message }]));
        }
      } finally {
        response.end();
      }
    },
  );
}

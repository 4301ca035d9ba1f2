import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { type GatewayRun, interruptRun } from './gateway-run.js';

/** Whether the client is gone: the connection closed before the whole answer was written. */
export const clientLeft = (response: ServerResponse): boolean =>
  !response.writableFinished && (response.destroyed || response.socket?.destroyed === true);

/**
 * Interrupts the run when the client goes away before its answer is written (an OpenAI client cancels a request,
 * streamed or not, by closing it; the SDK's `AbortSignal` and `stream.controller.abort()` do): a run nobody waits for
 * any more is not left to spend tokens and run tools. Returns the disposer of the watch.
 */
export function interruptWhenClientLeaves(
  run: GatewayRun,
  response: ServerResponse,
  log: FastifyBaseLogger,
): () => void {
  const onClose = (): void => {
    if (response.writableFinished) return;
    interruptRun(run).catch((error: unknown) =>
      log.warn({ err: error, conversationId: run.conversation.id }, 'openai: interrupting the abandoned run failed'),
    );
  };
  response.once('close', onClose);
  // The client may have left while the run was being started.
  if (clientLeft(response)) onClose();
  return () => response.off('close', onClose);
}

import type { CliContext } from '../context.js';
import { createVisualizer } from '../render/visualizer.js';

/**
 * Follows a server conversation until Ctrl-C; the stream resumes by index after a dropped connection.
 * The first connection must succeed: otherwise the stream's error (no answer, refused, timed out) is reported.
 */
export async function tailCommand(
  context: CliContext,
  url: string,
  id: string,
  options: { from?: number; apiKey?: string; connectTimeout?: number },
): Promise<number> {
  const { streamConversationEvents } = await import('@x/server/client');
  const { output } = context;
  const ec = output.errorColors;
  const visualizer = createVisualizer(output);
  const apiKey = options.apiKey ?? context.env.X_SESSION_API_KEY;
  const controller = new AbortController();
  let stopped = false;
  const onSigint = (): void => {
    stopped = true;
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  const stream = streamConversationEvents(url, id, {
    ...(apiKey === undefined || apiKey === '' ? {} : { apiKey }),
    fromIndex: options.from ?? 0,
    signal: controller.signal,
    // A first connection that fails ends the command (exit 1 with the reason); later drops are retried.
    readyTimeoutMs: options.connectTimeout ?? 10_000,
    reconnect: { initialDelayMs: 1_000, maxDelayMs: 30_000, retryFirstConnection: false },
    onEvent: (event, index) => {
      // The snapshot sent on every (re)connection is state, not a conversation event.
      if (event.kind === 'ConversationStateUpdateEvent' && event.key === 'full_state') return;
      visualizer.render(event, index);
    },
    onReady: ({ reconnected }) => {
      if (reconnected) output.error(ec.green(`Reconnected; resuming at event #${stream.nextIndex}.`));
      else output.error(ec.dim(`Following ${id} on ${url} from event #${options.from ?? 0}. Ctrl-C to stop.`));
    },
    onDisconnect: ({ reason, retryInMs }) => {
      output.error(
        ec.yellow(`Connection lost (${reason || 'closed'}); retrying in ${Math.round(retryInMs / 100) / 10}s…`),
      );
    },
  });
  try {
    await stream.done;
  } finally {
    process.off('SIGINT', onSigint);
    visualizer.flush();
  }
  if (stopped) output.error(ec.dim(`Stopped at event #${stream.nextIndex}. Continue with --from ${stream.nextIndex}.`));
  return 0;
}

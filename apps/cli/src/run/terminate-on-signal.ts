import type { Conversation } from '@x/agent';

const SIGNALS = ['SIGTERM', 'SIGHUP'] as const;
const FLUSH_LIMIT_MS = 2000;

/** `promise`, settled after at most `ms` (the timer does not keep the process alive). */
function withLimit(promise: Promise<unknown>, ms: number): Promise<unknown> {
  return Promise.race([promise.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, ms).unref())]);
}

/**
 * SIGTERM and SIGHUP end `x run` at once, as they would without a handler, but first end every process the
 * agent started: the terminal's shell runs in its own process group (so that Ctrl-C reaches only the agent), and
 * a signal that kills only this process would leave it and its commands' processes running. Returns the function
 * that removes the handlers. `beforeExit` (exporting the telemetry finished so far) gets at most
 * `FLUSH_LIMIT_MS`: a signal must still end the process when the collector does not answer.
 */
export function terminateOnSignal(
  conversation: Conversation,
  options: { beforeExit?: () => Promise<unknown> } = {},
): () => void {
  const { agent } = conversation;
  const onSignal = (signal: NodeJS.Signals): void => {
    remove();
    // MCP servers are stopped without waiting: their stdin closes with this process anyway.
    void agent.extensions.close().catch(() => undefined);
    const flushed = withLimit(options.beforeExit?.() ?? Promise.resolve(), FLUSH_LIMIT_MS);
    void Promise.allSettled([...agent.tools.map((tool) => tool.closeConversation?.(conversation.id)), flushed]).then(
      () => process.kill(process.pid, signal),
    );
  };
  const remove = (): void => {
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return remove;
}

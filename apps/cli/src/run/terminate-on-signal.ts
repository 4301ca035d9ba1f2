import type { Conversation } from '@x/agent';

const SIGNALS = ['SIGTERM', 'SIGHUP'] as const;

/**
 * SIGTERM and SIGHUP end `x run` at once, as they would without a handler, but first end every process the
 * agent started: the terminal's shell runs in its own process group (so that Ctrl-C reaches only the agent), and
 * a signal that kills only this process would leave it and its commands' processes running. Returns the function
 * that removes the handlers.
 */
export function terminateOnSignal(conversation: Conversation): () => void {
  const { agent } = conversation;
  const onSignal = (signal: NodeJS.Signals): void => {
    remove();
    // MCP servers are stopped without waiting: their stdin closes with this process anyway.
    void agent.extensions.close().catch(() => undefined);
    void Promise.allSettled(agent.tools.map((tool) => tool.closeConversation?.(conversation.id))).then(() =>
      process.kill(process.pid, signal),
    );
  };
  const remove = (): void => {
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return remove;
}

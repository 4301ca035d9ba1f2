import type { CliContext } from '../context.js';
import { RunEndedError } from '../errors/run-ended-error.js';
import { createVisualizer } from '../render/visualizer.js';

/** Sends a user message to a server conversation; with `--run`, runs it and shows the events live. */
export async function sendCommand(
  context: CliContext,
  url: string,
  id: string,
  message: string,
  options: { run?: boolean; apiKey?: string },
): Promise<number> {
  const { RemoteConversation, RemoteRunError } = await import('@x/server/client');
  const { output } = context;
  const c = output.colors;
  const apiKey = options.apiKey ?? context.env.X_SESSION_API_KEY;
  const visualizer = createVisualizer(output);
  const conversation = await RemoteConversation.attach(url, id, {
    ...(apiKey === undefined || apiKey === '' ? {} : { apiKey }),
    ...(options.run === true
      ? {
          onEvent: (event, index) => {
            if (event.kind === 'ConversationStateUpdateEvent' && event.key === 'full_state') return;
            visualizer.render(event, index);
            if (event.kind === 'ActionEvent' && event.action !== undefined)
              output.spinner.start(`Running ${event.tool_name}…`);
            else if (event.kind !== 'StreamingDeltaEvent') output.spinner.start('Waiting for the model…');
            else output.spinner.stop();
          },
        }
      : {}),
  });
  try {
    await conversation.sendMessage(message);
    if (options.run !== true) {
      output.line(
        `${c.green('✔')} Sent to ${c.cyan(conversation.id)}. ${c.dim(`Run it with: x send ${url} ${conversation.id} "<message>" --run`)}`,
      );
      return 0;
    }
    try {
      const result = await conversation.run();
      output.spinner.stop();
      visualizer.flush();
      output.line(result.status === 'finished' ? c.green('✔ Finished.') : `Status: ${result.status}`);
      return 0;
    } catch (error) {
      output.spinner.stop();
      visualizer.flush();
      if (RemoteRunError.isInstance(error)) throw new RunEndedError('error', error.message);
      throw error;
    }
  } finally {
    output.spinner.stop();
    await conversation.close();
  }
}

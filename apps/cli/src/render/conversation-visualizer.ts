import type { AnyEvent } from '@x/events';
import { colorsEnabled, createColors } from './colors.js';
import type { Output } from './output.js';
import { terminalOutput } from './terminal-safe.js';
import { createVisualizer } from './visualizer.js';

export interface ConversationVisualizerOptions {
  /** Where the rendering goes; default `process.stdout.write`. */
  write?: (text: string) => void;
  /** Colors on or off; default: on for a terminal, off when NO_COLOR is set or output is piped. */
  color?: boolean;
}

/** The CLI's rendering of a conversation, for your own program (reference `DefaultConversationVisualizer`). */
export interface ConversationVisualizer {
  /** Renders one event as `x run` does; pass it as a conversation's `onEvent` or `subscribe` listener. */
  readonly onEvent: (event: AnyEvent, index?: number) => void;
  /** Ends a line of streamed tokens, if one is open. */
  flush(): void;
}

/**
 * The blocks `x run` and `x view` print (messages, actions with their arguments, observations, errors, streamed
 * tokens), as a listener: `Conversation.create({ ..., onEvent: createConversationVisualizer().onEvent })`.
 */
export function createConversationVisualizer(options: ConversationVisualizerOptions = {}): ConversationVisualizer {
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const colors = createColors(
    colorsEnabled({
      flag: options.color,
      env: process.env,
      isTTY: options.write === undefined && process.stdout.isTTY === true,
    }),
  );
  const output: Pick<Output, 'colors' | 'line' | 'write'> = {
    colors,
    line: (text = '') => write(`${terminalOutput(text)}\n`),
    write: (text) => write(terminalOutput(text)),
  };
  const visualizer = createVisualizer(output as Output);
  return { onEvent: (event, index) => visualizer.render(event, index), flush: () => visualizer.flush() };
}

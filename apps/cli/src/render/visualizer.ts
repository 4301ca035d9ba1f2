import type { AnyEvent } from '@x/events';
import { eventBlock } from './event-block.js';
import type { Output } from './output.js';
import { terminalText } from './terminal-safe.js';

/** Renders a conversation's events as readable blocks, live or replayed. */
export interface Visualizer {
  /** One event; `index` is its log index (undefined for published-only events such as streaming deltas). */
  render(event: AnyEvent, index?: number): void;
  /** Ends a line of streamed tokens, if one is open. */
  flush(): void;
}

export function createVisualizer(output: Output): Visualizer {
  const c = output.colors;
  let streamed = '';
  let streaming = false;

  const flush = (): void => {
    if (streaming) output.line('\n');
    streaming = false;
  };

  return {
    render(event, index) {
      if (event.kind === 'StreamingDeltaEvent') {
        const text = event.content ?? '';
        if (text === '') return;
        if (!streaming) output.write(`${c.green('◀')} ${c.bold(c.green('Agent'))}\n  `);
        streaming = true;
        streamed += text;
        output.write(terminalText(text).replace(/\n/g, '\n  '));
        return;
      }
      const streamedText = streamed;
      if (event.kind === 'MessageEvent' || event.kind === 'ActionEvent') {
        flush();
        streamed = '';
      }
      const lines = eventBlock(event, {
        colors: c,
        index,
        streamedText: streamedText.trim() === '' ? undefined : streamedText,
      });
      if (lines === undefined || lines.length === 0) return;
      flush();
      output.line(`${lines.join('\n')}\n`);
    },
    flush,
  };
}

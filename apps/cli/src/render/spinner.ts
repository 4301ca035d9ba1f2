import type { Colors } from './colors.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const INTERVAL_MS = 80;

/** A one-line progress indicator on stderr. Does nothing unless stderr is a terminal. */
export interface Spinner {
  /** Shows (or relabels) the spinner; the elapsed time restarts when the label changes. */
  start(label: string): void;
  /** Removes the line; `start` shows it again. */
  stop(): void;
  /** Clears the line so other output can be written; the next tick redraws it. */
  clear(): void;
}

export function createSpinner(options: { stream: NodeJS.WriteStream; enabled: boolean; colors: Colors }): Spinner {
  const { stream, colors } = options;
  if (!options.enabled) return { start() {}, stop() {}, clear() {} };
  let timer: NodeJS.Timeout | undefined;
  let label = '';
  let since = Date.now();
  let frame = 0;
  let drawn = false;

  const clear = (): void => {
    if (!drawn) return;
    stream.write('\r\x1b[K');
    drawn = false;
  };
  const draw = (): void => {
    const seconds = Math.floor((Date.now() - since) / 1000);
    const elapsed = seconds >= 1 ? colors.dim(` ${seconds}s`) : '';
    const width = Math.max(20, (stream.columns || 80) - 8);
    const text = label.length > width ? `${label.slice(0, width - 1)}…` : label;
    stream.write(`\r\x1b[K${colors.cyan(FRAMES[frame % FRAMES.length] ?? '')} ${colors.dim(text)}${elapsed}`);
    frame += 1;
    drawn = true;
  };

  return {
    start(next) {
      if (next !== label) since = Date.now();
      label = next;
      if (timer === undefined) {
        timer = setInterval(draw, INTERVAL_MS);
        timer.unref();
      }
      draw();
    },
    stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      clear();
    },
    clear,
  };
}

import { type Colors, colorsEnabled, createColors } from './colors.js';
import { createSpinner, type Spinner } from './spinner.js';
import { terminalOutput } from './terminal-safe.js';

/** Where a command writes: data and transcripts to stdout, progress and problems to stderr. */
export interface Output {
  readonly colors: Colors;
  /** Colors for stderr, decided for stderr's own terminal. */
  readonly errorColors: Colors;
  readonly spinner: Spinner;
  readonly stdinIsTTY: boolean;
  /**
   * Writes text plus a newline to stdout (clearing the spinner first). Here and in `write` and `error`, control
   * characters other than the CLI's own colors are spelled out (`terminalOutput`).
   */
  line(text?: string): void;
  /** Writes text to stdout, without a newline. */
  write(text: string): void;
  /** Writes text plus a newline to stderr. */
  error(text: string): void;
}

export interface OutputOptions {
  /** `--color` / `--no-color`, when given. */
  color: boolean | undefined;
  env?: NodeJS.ProcessEnv;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
}

export function createOutput(options: OutputOptions): Output {
  const env = options.env ?? process.env;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const colors = createColors(colorsEnabled({ flag: options.color, env, isTTY: stdout.isTTY === true }));
  const errorColors = createColors(colorsEnabled({ flag: options.color, env, isTTY: stderr.isTTY === true }));
  const spinner = createSpinner({ stream: stderr, enabled: stderr.isTTY === true, colors: errorColors });
  return {
    colors,
    errorColors,
    spinner,
    stdinIsTTY: process.stdin.isTTY === true,
    line(text = '') {
      spinner.clear();
      stdout.write(`${terminalOutput(text)}\n`);
    },
    write(text) {
      spinner.clear();
      stdout.write(terminalOutput(text));
    },
    error(text) {
      spinner.clear();
      stderr.write(`${terminalOutput(text)}\n`);
    },
  };
}

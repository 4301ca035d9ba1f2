import type { Command } from 'commander';
import { createOutput, type Output } from './render/output.js';

/** What every command gets: where to write (with colors decided) and the environment. */
export interface CliContext {
  output: Output;
  env: NodeJS.ProcessEnv;
  /** `--verbose`: diagnostics (and `x serve`'s server log) go to stderr; without it the CLI logs nothing. */
  verbose?: boolean;
}

export function contextOf(command: Command): CliContext {
  const { color, verbose } = command.optsWithGlobals<{ color?: boolean; verbose?: boolean }>();
  return { output: createOutput({ color }), env: process.env, verbose: verbose === true };
}

/** Writes a diagnostic line to stderr, only with `--verbose` (stdout stays for data and transcripts). */
export function logVerbose(context: CliContext, text: string): void {
  if (context.verbose === true) context.output.error(context.output.errorColors.dim(`x: ${text}`));
}

/**
 * Wraps a command's action: loads its module only when the command runs (so `x --help` and the
 * read-only commands start fast) and turns its result into the process exit code.
 */
export function lazyAction<Args extends unknown[]>(
  load: () => Promise<(context: CliContext, ...args: Args) => Promise<number>>,
): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const run = await load();
    const code = await run(contextOf(command), ...(args.slice(0, -1) as Args));
    if (code !== 0) process.exitCode = code;
  };
}

import { z } from 'zod';
import { truncateMiddle } from './internal/output-buffer.js';
import { runCommand } from './internal/run-command.js';
import { maskSecrets } from './secrets.js';
import { defineTool, type Tool } from './tool.js';
import { ToolExecutionError } from './tool-execution-error.js';

export interface TerminalToolOptions {
  /** Default limit for one command, in seconds (the action's `timeout` overrides it). Default 120. */
  timeoutSeconds?: number;
  /** Output longer than this is cut in the middle, with a notice of how much was dropped. Default 30000. */
  maxOutputChars?: number;
  /** Shell that runs `shell -c <command>`. Default `/bin/bash`. */
  shell?: string;
}

export const terminalParameters = z.object({
  command: z
    .string()
    .describe(
      'The shell command to execute. It runs in a fresh shell whose working directory is the workspace; ' +
        'chain commands with && or ; (a `cd` does not carry over to the next call).',
    ),
  timeout: z
    .number()
    .positive()
    .optional()
    .describe('Optional. Seconds to wait before the command (and everything it started) is killed.'),
});

export type TerminalAction = z.output<typeof terminalParameters>;

/** `terminal`: runs one shell command per call in the workspace (see the README for how it differs from tmux). */
export function createTerminalTool(options: TerminalToolOptions = {}): Tool<TerminalAction> {
  const defaultTimeoutSeconds = options.timeoutSeconds ?? 120;
  const maxOutputChars = options.maxOutputChars ?? 30_000;
  const shell = options.shell ?? '/bin/bash';
  return defineTool({
    name: 'terminal',
    toolKind: 'TerminalTool',
    description:
      'Execute a shell command in the workspace and return its combined stdout and stderr with the exit code.\n' +
      '* Each call starts a fresh shell in the workspace directory: environment changes and `cd` do not persist.\n' +
      `* Commands are killed after ${defaultTimeoutSeconds} seconds unless \`timeout\` says otherwise; run ` +
      'long-lived processes in the background with their output redirected to a file.\n' +
      '* stdin is empty: use non-interactive flags (e.g. `apt-get -y`, `git --no-pager`).\n' +
      `* Output longer than ${maxOutputChars} characters is cut in the middle.`,
    parameters: terminalParameters,
    annotations: {
      title: 'terminal',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    async execute({ command, timeout }, context) {
      const timeoutSeconds = timeout ?? defaultTimeoutSeconds;
      let result: Awaited<ReturnType<typeof runCommand>>;
      try {
        result = await runCommand({
          command,
          shell,
          cwd: context.workspace,
          env: { ...process.env, ...context.env },
          timeoutMs: timeoutSeconds * 1000,
          keepChars: maxOutputChars,
          ...(context.signal === undefined ? {} : { signal: context.signal }),
        });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new ToolExecutionError('terminal', `Cannot start '${shell}' in '${context.workspace}': ${reason}`, {
          cause: error,
        });
      }
      const secrets = context.secretValues ?? [];
      // Mask before truncating, so a cut never leaves half a secret visible.
      const text =
        result.dropped === 0
          ? maskSecrets(result.head + result.tail, secrets)
          : maskSecrets(result.head, secrets) + maskSecrets(result.tail, secrets);
      const output = truncateMiddle(text, maxOutputChars, result.dropped);
      let status: string;
      if (result.timedOut) status = `[The command timed out after ${timeoutSeconds} seconds and was killed.]`;
      else if (result.aborted) status = '[The command was interrupted and killed.]';
      else status = `[The command completed with exit code ${result.exitCode}.]`;
      const separator = output === '' || output.endsWith('\n') ? '' : '\n';
      return {
        content: `${output}${separator}${status}`,
        is_error: result.exitCode !== 0,
        command,
        exit_code: result.exitCode,
        timed_out: result.timedOut,
      };
    },
  });
}

import { resolve } from 'node:path';
import { z } from 'zod';
import type { Sandbox } from '../sandbox/sandbox.js';
import { type SandboxPolicyInput, sandboxPolicySchema } from '../sandbox/sandbox-policy.js';
import { openDefaultSandbox, type SandboxOpener } from '../sandboxing/sandbox-opener.js';
import { buildToolEnvironment, type ToolEnvironment, validateToolEnvironment } from './environment/index.js';
import { checkToolOptionLimits } from './internal/tool-option-limits.js';
import { runTerminalAction, type TerminalOutcome, type TerminalState } from './terminal/run-terminal-action.js';
import { ShellSession } from './terminal/shell-session.js';
import {
  defaultNoChangeTimeoutSeconds,
  terminalDescription,
  timeoutParameterDescription,
} from './terminal/terminal-description.js';
import { defaultMetadata } from './terminal/terminal-observation.js';
import { literalArgumentHint, pythonLiteralKind, resetText } from './terminal/terminal-texts.js';
import { defineTool, type Tool, type ToolContext, type ToolResult } from './tool.js';
import { ToolExecutionError } from './tool-execution-error.js';

export interface TerminalToolOptions {
  /**
   * Without an action `timeout`, a command that prints nothing for this long returns what it printed so far
   * (exit code -1) and keeps running; the model can then wait, send input or `C-c`. Default 30 (the reference's).
   */
  noChangeTimeoutSeconds?: number;
  /**
   * Without an action `timeout`, the longest a call waits for a command that keeps printing; it then returns like a
   * timeout (exit code -1) and the command keeps running. Default 600. (The reference waits indefinitely.)
   */
  maxWaitSeconds?: number;
  /** Output longer than this is cut in the middle (the reference's truncation). Default 30000. */
  maxOutputChars?: number;
  /** The shell of the session. Default `/bin/bash` (bash is required: the session uses `$'…'` and `trap`). */
  shell?: string;
  /** What the shell inherits from the host; default: `defaultInheritedVariables`, never credentials. */
  environment?: ToolEnvironment;
  /**
   * Used only when the tool runs without a conversation's sandbox (`ToolContext.sandbox`): the policy of the
   * sandbox the tool then opens per session itself. Default: the default policy (sandboxed, no network).
   */
  sandboxPolicy?: SandboxPolicyInput;
  /** How such a sandbox is opened (default `openDefaultSandbox`). */
  openSandbox?: SandboxOpener;
}

/** The terminal's arguments; the `timeout` text states the soft timeout the tool applies without one. */
function terminalParametersFor(noChangeTimeoutSeconds: number) {
  return z.object({
    command: z
      .string()
      .describe(
        'The shell command to execute. Can be empty string to view additional logs when the previous exit code is ' +
          '`-1`. Can be a special key name when `is_input` is True: `C-c` (Ctrl+C), `C-d` (Ctrl+D/EOF), `C-z` ' +
          '(Ctrl+Z), or any `C-<letter>` for Ctrl sequences; navigation keys `UP`, `DOWN`, `LEFT`, `RIGHT`, `HOME`, ' +
          '`END`, `PGUP`, `PGDN`; and `TAB`, `ESC`, `BS` (Backspace), `ENTER`. You can only execute one command at ' +
          'a time. Use the platform-appropriate shell syntax described in the tool description when chaining commands.',
      ),
    is_input: z
      .boolean()
      .default(false)
      .describe(
        'If True, the command is an input to the running process. If False, the command is executed in the ' +
          'terminal session. Default is False.',
      ),
    timeout: z.number().min(0).nullish().describe(timeoutParameterDescription(noChangeTimeoutSeconds)),
    reset: z
      .boolean()
      .default(false)
      .describe(
        'If True, reset the terminal by creating a new session. Use this only when the terminal becomes ' +
          'unresponsive. Note that all previously set environment variables and session state will be lost after ' +
          'reset. Cannot be used with is_input=True.',
      ),
  });
}

/** The terminal's arguments with the default soft timeout (`createTerminalTool` states its configured one). */
export const terminalParameters = terminalParametersFor(defaultNoChangeTimeoutSeconds);

export type TerminalAction = z.output<typeof terminalParameters>;

function toResult(outcome: TerminalOutcome): ToolResult {
  const { text, is_error, command, exit_code, timeout, metadata } = outcome;
  return {
    content: text,
    is_error,
    command,
    ...(exit_code === undefined ? {} : { exit_code }),
    timeout,
    metadata,
  };
}

/**
 * `terminal`: one persistent bash session per conversation (`cd`, `export` and shell state carry over), with
 * the reference's soft timeouts, `is_input`, `reset` and observation fields. The shell gets a minimal explicit
 * environment (see `ToolEnvironment`), never the host's credentials.
 */
export function createTerminalTool(options: TerminalToolOptions = {}): Tool<TerminalAction> & {
  /** Kills every session this tool started. */
  closeAll(): Promise<void>;
} {
  checkToolOptionLimits('terminal', options, {
    noChangeTimeoutSeconds: 'duration',
    maxWaitSeconds: 'duration',
    maxOutputChars: 'count',
  });
  validateToolEnvironment(options.environment);
  const settings = {
    noChangeTimeoutSeconds: options.noChangeTimeoutSeconds ?? defaultNoChangeTimeoutSeconds,
    maxOutputChars: options.maxOutputChars ?? 30_000,
    maxWaitSeconds: options.maxWaitSeconds ?? 600,
  };
  const shell = options.shell ?? '/bin/bash';
  const states = new Map<string, TerminalState>();
  /** Actions of one session run one after another. */
  const queues = new Map<string, Promise<unknown>>();
  /** Sandboxes the tool opened itself, for sessions run without a conversation's, by session key. */
  const ownSandboxes = new Map<string, Promise<Sandbox>>();

  const sandboxFor = (key: string, context: ToolContext): Promise<Sandbox> => {
    if (context.sandbox !== undefined) return context.sandbox();
    let own = ownSandboxes.get(key);
    if (own === undefined) {
      const open = options.openSandbox ?? openDefaultSandbox;
      own = open({
        policy: sandboxPolicySchema.parse(options.sandboxPolicy ?? {}),
        workspace: resolve(context.workspace),
      });
      ownSandboxes.set(key, own);
      own.catch(() => ownSandboxes.delete(key));
    }
    return own;
  };

  const disposeOwn = async (key: string): Promise<void> => {
    const own = ownSandboxes.get(key);
    ownSandboxes.delete(key);
    await (await own?.catch(() => undefined))?.dispose();
  };

  const startSession = async (key: string, context: ToolContext): Promise<TerminalState> => {
    const env = buildToolEnvironment(options.environment);
    env.PAGER ??= 'cat';
    env.GIT_PAGER ??= 'cat';
    let sandbox: Sandbox;
    try {
      sandbox = await sandboxFor(key, context);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ToolExecutionError('terminal', `Cannot start the terminal's sandbox: ${reason}`, { cause: error });
    }
    const session = new ShellSession({
      shell,
      cwd: resolve(context.workspace),
      env,
      keepChars: settings.maxOutputChars,
      sandbox,
    });
    try {
      const report = await session.start();
      return { session, shownPartialOutput: false, workingDir: report.workingDir };
    } catch (error) {
      session.close();
      const reason = error instanceof Error ? error.message : String(error);
      throw new ToolExecutionError('terminal', `Cannot start '${shell}' in '${context.workspace}': ${reason}`, {
        cause: error,
      });
    }
  };

  const execute = async (action: TerminalAction, context: ToolContext): Promise<ToolResult> => {
    if (action.reset && action.is_input) {
      throw new ToolExecutionError('terminal', 'Cannot use reset=True with is_input=True');
    }
    if (!action.is_input) {
      const kind = pythonLiteralKind(action.command);
      if (kind !== undefined) {
        const head = action.command.trimStart().slice(0, 60);
        return {
          content: literalArgumentHint(kind, head),
          is_error: true,
          command: action.command,
          timeout: false,
          metadata: defaultMetadata(),
        };
      }
    }
    const key = context.conversationId ?? resolve(context.workspace);
    let state = states.get(key);
    let reset = false;
    if (action.reset || (state !== undefined && !state.session.alive)) {
      state?.session.close();
      states.delete(key);
      state = undefined;
      reset = true;
    }
    if (state === undefined) {
      state = await startSession(key, context);
      states.set(key, state);
    }
    if (reset && action.command.trim() === '') {
      return {
        content: resetText,
        is_error: false,
        command: '[RESET]',
        exit_code: 0,
        timeout: false,
        metadata: defaultMetadata(),
      };
    }
    const outcome = await runTerminalAction(
      state,
      { ...action, is_input: reset ? false : action.is_input },
      context,
      settings,
    );
    // A dead shell stays in the map: the next action restarts it and says so (the reference's reset text).
    if (outcome.killed === true) state.session.close();
    const result = toResult(outcome);
    if (reset) return { ...result, content: `${resetText}\n\n${outcome.text}`, command: `[RESET] ${action.command}` };
    return result;
  };

  const tool = defineTool({
    name: 'terminal',
    toolKind: 'TerminalTool',
    description: terminalDescription(settings.noChangeTimeoutSeconds),
    parameters: terminalParametersFor(settings.noChangeTimeoutSeconds),
    annotations: {
      title: 'terminal',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    execute(action, context) {
      const key = context.conversationId ?? resolve(context.workspace);
      const previous = queues.get(key) ?? Promise.resolve();
      const next = previous.then(
        () => execute(action, context),
        () => execute(action, context),
      );
      const settled = next.catch(() => undefined);
      queues.set(key, settled);
      void settled.then(() => {
        if (queues.get(key) === settled) queues.delete(key);
      });
      return next;
    },
    async closeConversation(conversationId) {
      const state = states.get(conversationId);
      states.delete(conversationId);
      state?.session.close();
      await disposeOwn(conversationId);
    },
  });
  return Object.freeze({
    ...tool,
    async closeAll() {
      for (const state of states.values()) state.session.close();
      states.clear();
      await Promise.all([...ownSandboxes.keys()].map((key) => disposeOwn(key)));
    },
  });
}

import { withCommandName } from './command-name.js';
import { CliError, ExitCode } from './errors.js';
import type { Colors } from './render/colors.js';
import { terminalOutput } from './render/terminal-safe.js';

/** What to do about the typed errors of the @x packages, by `code`. */
const HINTS: Record<string, string> = {
  llm_authentication:
    "Check the provider's API key (OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY) and its *_BASE_URL if you use another endpoint.",
  llm_service: "Is the endpoint reachable? Check the provider's *_BASE_URL and your network; retries were used up.",
  llm_timeout: 'The model did not answer in time; try again, or use a faster model with --model.',
  llm_rate_limit: 'The provider is limiting requests; wait a little and resume with `x run --resume <id>`.',
  llm_bad_request: 'The endpoint rejected the request; check the model name (--model).',
  llm_context_window_exceeded: 'The conversation no longer fits the model; run with --condenser summarize.',
  corrupt_event: 'That event file is damaged; the other events are still readable with `x events`.',
  corrupt_base_state: 'base_state.json is damaged; `x events` can still read the events.',
  backend_error: 'The storage failed; check that the data directory is writable (--data-dir).',
  conversation_exists: 'Use another id, or resume it with `x run --resume <id>`.',
  conversation_log_gap:
    'Restore the missing event file; or, if it is lost, `x run --resume <id> --repair-log-gap` moves the event files past it aside (kept in events-past-gap-<index>/) and goes on from the gap.',
  conversation_running:
    'Another process runs this conversation. Wait for it (`x run --resume <id> --wait`), or stop it; a killed one is taken over once its lease expires (15 s).',
  invalid_hook_config: 'Fix the hook file (the .openhands/hooks.json format), or run with --no-hooks.',
  remote_auth_failed: 'Pass the server’s session key with --api-key or X_SESSION_API_KEY.',
  remote_request_failed: 'Is the server running at that URL? Start one with `x serve`.',
  unknown_event: 'List the event ids (and indices) with `x events <conversation>`.',
  remote_route_not_found: 'The server does not have this route: it may be an older or a different agent server.',
  sandbox_unavailable:
    'Install bubblewrap (apt-get install bubblewrap) on a Linux host with user namespaces, or run with --unsandboxed to run the agent’s commands WITHOUT a sandbox, with your authority.',
  sandbox_policy_invalid: 'Check the --allow-network, --allow-read, --allow-write and --sandbox-limit values.',
  sandbox_limit_unavailable:
    'Give the server a writable pids cgroup (cgroup v1 `pids`, or v2 with `pids` delegated), or run with --sandbox-limit processes=unlimited to run WITHOUT a process limit.',
  remote_stream_closed: 'The server closed the event stream; check that it is still running.',
  invalid_eval_suite:
    'Fix the suite file: each case has an id, a task or a conversation, and scorers (see `x eval --help`).',
  invalid_eval_baseline:
    'Give a report `x eval --json` or `--save-baseline` wrote, or save a new one with --save-baseline.',
  invalid_eval_option: '--runs and --k take a whole number from 1 to 1000, --tolerance a pass rate from 0 to 1.',
  eval_conversation_not_found:
    'Give the conversation directory (relative to the suite file) or an id in the data directory (--data-dir).',
};

/** Errors in what the user wrote (a suite, a baseline, an option): exit 2, as a wrong command line, not 1 (a failed eval). */
const USAGE_CODES = new Set(['invalid_eval_suite', 'invalid_eval_baseline', 'invalid_eval_option']);

const NOT_FOUND_CODES = new Set([
  'conversation_not_found',
  'file_not_found',
  'unknown_event_id',
  'unknown_event',
  'remote_conversation_not_found',
  'eval_conversation_not_found',
]);

/**
 * Prints an error for a person: what went wrong and what to do, without a stack trace unless
 * X_DEBUG=1. Returns the exit code.
 */
export function reportError(error: unknown, colors: Colors, env: NodeJS.ProcessEnv = process.env): number {
  const debug = env.X_DEBUG === '1' || env.X_DEBUG === 'true';
  // An error message can quote a conversation's files (an invalid event, a hostile tool name): spelled out too.
  const write = (text: string): void => {
    process.stderr.write(`${terminalOutput(text)}\n`);
  };
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  let exitCode: number = ExitCode.failure;
  let hint: string | undefined;
  if (CliError.isInstance(error)) {
    exitCode = error.exitCode;
    hint = error.hint;
    write(`${colors.red(colors.bold('error'))} ${message}`);
  } else if (typeof code === 'string' && error instanceof Error) {
    if (NOT_FOUND_CODES.has(code)) exitCode = ExitCode.notFound;
    if (USAGE_CODES.has(code)) exitCode = ExitCode.usage;
    // Own entries only: a server's code `constructor` has no hint, not Object.prototype's.
    hint = Object.hasOwn(HINTS, code) ? HINTS[code] : undefined;
    write(`${colors.red(colors.bold('error'))} ${message} ${colors.dim(`(${code})`)}`);
  } else {
    write(`${colors.red(colors.bold('unexpected error'))} ${message}`);
    if (!debug) hint = 'This is probably a bug in x. Run again with X_DEBUG=1 to see the stack trace, and report it.';
  }
  if (hint !== undefined) write(colors.dim(withCommandName(hint, env)));
  if (debug) {
    let current: unknown = error;
    while (current instanceof Error) {
      write(colors.dim(current.stack ?? `${current.name}: ${current.message}`));
      current = current.cause;
      if (current !== undefined) write(colors.dim('caused by:'));
    }
  }
  return exitCode;
}

import type { ConversationState } from '@x/agent';
import { commandName } from '../command-name.js';
import { ExitCode } from '../errors.js';
import type { Output } from '../render/output.js';
import { statsLine } from '../render/stats.js';
import type { ModelChoice } from './choose-model.js';

export function printRunHeader(
  output: Output,
  info: {
    id: string;
    location: string;
    workspace: string;
    model: ModelChoice;
    resumed: boolean;
    /** What the agent's processes run under (`describeSandboxPolicy`). */
    sandbox?: string;
    unsandboxed?: boolean;
  },
): void {
  const c = output.colors;
  const row = (label: string, value: string): void => output.line(`  ${c.dim(label.padEnd(10))} ${value}`);
  output.line(`${c.bold(info.resumed ? 'Resuming conversation' : 'Conversation')} ${c.cyan(info.id)}`);
  row('saved in', info.location);
  row('workspace', info.workspace);
  if (info.sandbox !== undefined) row('sandbox', info.unsandboxed === true ? c.yellow(info.sandbox) : info.sandbox);
  const { model } = info;
  row(
    'model',
    model.kind === 'endpoint' ? `${model.llm.model} ${c.dim(`at ${model.endpoint}`)}` : 'offline (built in)',
  );
  if (model.kind === 'demo') {
    output.line(c.yellow('  Demo: the built-in offline model replays a scripted run. No network, no API key.'));
  } else if (model.kind === 'offline') {
    output.line(
      c.yellow(
        '  No OPENAI_API_KEY is set, so this runs on the built-in offline model: it needs no network and can only',
      ),
    );
    output.line(
      c.yellow('  replay scripts. Set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY to use a real model.'),
    );
  }
  output.line();
}

/** The closing lines: stats, how the run ended, what to do next. Returns the exit code. */
export function printRunOutcome(
  output: Output,
  info: {
    state: ConversationState;
    elapsedMs: number;
    shortId: string;
    dataDirFlag: string;
    interrupted: boolean;
    /** The detail of the budget stop that ended the run, if one did. */
    budgetStop?: string;
  },
): number {
  const c = output.colors;
  const { state } = info;
  output.line(statsLine({ stats: state.stats, iterations: state.iteration, elapsedMs: info.elapsedMs }, c));
  const id = `${info.shortId}${info.dataDirFlag}`;
  const x = commandName();
  const next = c.dim(
    `  replay: ${x} replay ${id}   inspect: ${x} inspect ${id}   continue: ${x} run --resume ${id} "<message>"`,
  );
  const status = state.execution_status;
  const lines: Record<string, [string, number]> = {
    finished: [c.green('✔ Finished.'), ExitCode.ok],
    idle: [c.dim('The conversation is idle.'), ExitCode.ok],
    error: [c.red('✖ The run ended in an error (shown above).'), ExitCode.failure],
    stuck: [c.red('✖ The agent got stuck repeating itself and was stopped.'), ExitCode.failure],
    paused: [c.yellow('‖ Paused.'), info.interrupted ? ExitCode.interrupted : ExitCode.ok],
    waiting_for_confirmation: [
      c.yellow(`‖ Waiting for confirmation: no answer was given. Continue with \`${x} run --resume\` on a terminal.`),
      ExitCode.failure,
    ],
  };
  if (status === 'error' && info.budgetStop !== undefined) {
    output.line(c.yellow(`$ Stopped on the money budget: ${info.budgetStop}`));
    output.line(c.dim(`  raise it to continue: ${x} run --resume ${id} --max-budget <dollars>`));
    output.line(next);
    return ExitCode.budget;
  }
  const [message, code] = lines[status] ?? [`Status: ${status}`, ExitCode.failure];
  output.line(message);
  output.line(next);
  return info.interrupted && code === ExitCode.failure ? ExitCode.interrupted : code;
}

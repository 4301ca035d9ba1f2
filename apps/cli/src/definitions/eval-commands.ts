import { type Command, InvalidArgumentError, Option } from 'commander';
import { lazyAction } from '../context.js';
import { examples } from './help-text.js';
import { parsePositiveInteger, parsePositiveSeconds } from './parsers.js';

const DATA_DIR = [
  '--data-dir <dir>',
  'where live runs are saved and conversation ids are looked up (default: $X_HOME/conversations or ~/.x/conversations)',
] as const;

function parseRate(value: string): number {
  const rate = Number(value);
  if (value.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) {
    throw new InvalidArgumentError(`expected a pass rate between 0 and 1, got '${value}'.`);
  }
  return rate;
}

/** `x eval <suite>` and `x eval promote <conversation> --suite <file>`. */
export function defineEvalCommands(program: Command): void {
  const evalCommand = program
    .command('eval')
    .summary('run an eval suite: live tasks N times, recorded conversations by strict replay')
    .description(
      'Runs each case of a suite file (YAML or JSON): a `task` runs live (--runs times, for pass@k and pass^k) with the model `x run` would use; a recorded `conversation` is replayed strictly against today’s agent (a changed prompt or tool fails it at the first differing request) and then scored. Prints a table; writes the report as JSON (--json) and as a self-contained HTML page (--html). With --baseline, exits 1 when a case’s pass rate fell below the baseline’s; without one, when any run failed. Invalid suites exit 2.',
    )
    .argument('<suite>', 'the suite file (.yaml, .yml or .json)')
    .option('--runs <n>', 'live runs per case, unless the suite or the case says (default: 1)', parsePositiveInteger)
    .option('--k <n>', 'the k of pass@k and pass^k (default: each case’s number of runs)', parsePositiveInteger)
    .option('--json <file>', 'write the report as JSON')
    .option('--html <file>', 'write the report as a self-contained HTML page with a chart')
    .option('--baseline <file>', 'compare with this saved report; a case whose pass rate fell is a regression')
    .option('--save-baseline', 'write this run’s report to the --baseline file (instead of comparing)')
    .option('--tolerance <rate>', 'how far a pass rate may fall before it is a regression (default: 0)', parseRate)
    .option('-m, --model <name>', 'model of the live runs, as `x run --model` (default: $X_MODEL, else the provider’s)')
    .addOption(
      new Option('--provider <name>', 'wire protocol of the live runs’ model, as `x run --provider`').choices([
        'openai',
        'openai-responses',
        'anthropic',
        'gemini',
      ]),
    )
    .option('--base-url <url>', "the live runs' provider endpoint (default: the provider's *_BASE_URL)")
    .option('--judge-model <name>', 'model of the llm-judge scorer (default: the live runs’ model)')
    .option(
      '--scorer-timeout <seconds>',
      'how long one scorer may take on one run; one that takes longer fails that run (default: 300)',
      parsePositiveSeconds,
    )
    .option(...DATA_DIR)
    .addHelpText(
      'after',
      examples(
        ['x eval evals.yaml', 'run every case once, print the table'],
        ['x eval evals.yaml --runs 5 --html report.html', 'five live runs per case, and an HTML report'],
        ['x eval evals.yaml --baseline base.json --save-baseline', 'save the baseline'],
        ['x eval evals.yaml --baseline base.json', 'exit 1 when a case regressed'],
        ['x eval promote 3f2c1a9e --suite evals.yaml', 'add a conversation to the suite as a case'],
      ),
    )
    .action(lazyAction(async () => (await import('../commands/eval.js')).evalCommand));

  evalCommand
    .command('promote')
    .summary('add a recorded conversation to a suite as a case')
    .description(
      'Adds the conversation to the suite file (created when missing; a YAML file keeps its comments) as a case that replays it strictly and checks that it has no errors, makes the same tool calls and gives the same final answer. Edit the scorers afterwards as you like.',
    )
    .argument(
      '<conversation>',
      'a conversation id (or unique prefix) in the data directory, or the path of a conversation directory',
    )
    .requiredOption('--suite <file>', 'the suite file to add the case to (.yaml, .yml or .json)')
    .option('--id <id>', 'the case id (default: conversation-<first 8 hex of its id>)')
    .option(...DATA_DIR)
    .action(lazyAction(async () => (await import('../commands/eval-promote.js')).evalPromoteCommand));
}

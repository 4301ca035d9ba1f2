import { type Command, Option } from 'commander';
import { lazyAction } from '../context.js';
import { examples } from './help-text.js';
import { parsePositiveInteger } from './parsers.js';

export function defineRun(program: Command): void {
  program
    .command('run')
    .summary('run an agent on a task in this directory')
    .description(
      'Runs an agent on a task, with the current directory (or --workspace) as its workspace, and shows its events as they happen. The conversation is saved under the data directory so it can be replayed, inspected or resumed.\n\nWith OPENAI_API_KEY set it uses that OpenAI-compatible endpoint (OPENAI_BASE_URL, --model); without one there is no model to run the task with, so it stops with exit code 1 (try --demo for the built-in offline demo).\n\nWith --json, stdout carries only the run’s events, one JSON object a line (NDJSON, the reference’s event format), for scripts; the header, prompts and the closing summary go to stderr.',
    )
    .argument('[task]', 'what the agent should do')
    .option('-w, --workspace <dir>', 'directory the agent works in (default: the current directory)')
    .option('--data-dir <dir>', 'where conversations are saved (default: $X_HOME/conversations or ~/.x/conversations)')
    .option('-m, --model <name>', 'model name for the OpenAI-compatible endpoint (default: $X_MODEL or gpt-4o-mini)')
    .option('--base-url <url>', 'OpenAI-compatible endpoint, including /v1 (default: $OPENAI_BASE_URL)')
    .addOption(
      new Option(
        '--confirm <policy>',
        'ask before actions run: never (default), always, or risky (the model rates each action; unknown risks ask)',
      ).choices(['never', 'always', 'risky']),
    )
    .option('--max-iterations <n>', 'stop after this many agent steps (default: 500)', parsePositiveInteger)
    .addOption(
      new Option(
        '--condenser <kind>',
        'keep long conversations within the context: none, or summarize old events with the model',
      )
        .choices(['none', 'summarize'])
        .default('none'),
    )
    .option(
      '--resume <conversation>',
      'continue a saved conversation (id, id prefix or directory); the task, if given, is sent as a new message',
    )
    .option('--stream', 'show the model’s tokens as they arrive')
    .option(
      '--demo',
      'run the built-in demo task on the offline model in a fresh workspace under $X_HOME/demo-workspaces',
    )
    .option('--json', 'print the events as NDJSON on stdout (one JSON event a line) and nothing else there')
    .addHelpText(
      'after',
      examples(
        ['x run --demo', 'the offline demo: create hello.txt and show it'],
        ['x run "List the TODOs in src/"', 'a task in the current directory'],
        ['OPENAI_API_KEY=sk-… x run -m gpt-4o "Fix the failing test"', 'a real model'],
        ['x run --confirm always "Clean up build/"', 'approve each action with y/n'],
        ['x run --resume 3f2c1a "Now add tests"', 'continue a saved conversation'],
        ['x run --json "Summarize README.md" | jq -c .kind', 'the events as NDJSON, for scripts'],
      ),
    )
    .action(lazyAction(async () => (await import('../commands/run.js')).runCommand));
}

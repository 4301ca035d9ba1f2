import type { Command } from 'commander';
import { lazyAction } from '../context.js';
import { examples } from './help-text.js';
import { collect } from './parsers.js';

const CONVERSATION =
  'a conversation id (or unique prefix) in the data directory, or the path of a conversation directory';
const DATA_DIR = [
  '--data-dir <dir>',
  'where conversations are looked up (default: $X_HOME/conversations or ~/.x/conversations)',
] as const;

/** The conversation-tree commands (reference §7.7): they write to the conversation directory. */
export function defineTreeCommands(program: Command): void {
  program
    .command('fork')
    .summary('copy a conversation (or one branch of it) into a new one')
    .description(
      'Creates a new conversation with this one’s events, unchanged (same ids), as the reference’s fork: all of them, or with --from only the branch from the root to that event, which becomes the fork’s HEAD. The fork starts idle with fresh stats; the source is not changed. Continue it with `x run --resume <new id>`.',
    )
    .argument('<conversation>', CONVERSATION)
    .option('--from <event>', 'fork at this event: its id, or its index as `x events` shows it (4 or #4)')
    .option('--title <title>', 'title of the fork')
    .option(
      '-w, --workspace <dir>',
      'workspace of the fork (default: the original’s); with workspace checkpoints it gets the files as they were at --from',
    )
    .option('-m, --model <name>', 'model of the fork’s runs: `x run --resume <fork>` uses it unless given --model')
    .option('--tools <names>', 'built-in tools the fork’s runs keep, comma-separated (terminal,file_editor,…)', collect)
    .option('--json', 'print the fork’s id and location as JSON')
    .option(...DATA_DIR)
    .addHelpText(
      'after',
      examples(
        ['x fork 3f2c1a9e', 'a copy of the whole conversation'],
        ['x fork 3f2c1a9e --from 4', 'the branch up to event #4'],
        ['x fork 3f2c1a9e --from 4 -m gpt-4o -w ../try-b', 'a counterfactual: another model, its own files'],
      ),
    )
    .action(lazyAction(async () => (await import('../commands/tree.js')).forkCommand));

  program
    .command('navigate')
    .summary('move a conversation’s HEAD to an event (start a branch there)')
    .description(
      'Moves HEAD (leaf_event_id) to the event, as the reference’s navigate_to: the next message answers that event, so it starts a sibling branch; the other branch stays on disk but leaves the view. `none` empties HEAD. `x inspect` shows HEAD and the branches.',
    )
    .argument('<conversation>', CONVERSATION)
    .argument('<event>', 'the event id, its index (4 or #4), or `none`')
    .option(...DATA_DIR)
    .addHelpText(
      'after',
      examples(['x navigate 3f2c1a9e 4', 'HEAD at event #4'], ['x navigate 3f2c1a9e none', 'an empty HEAD']),
    )
    .action(lazyAction(async () => (await import('../commands/tree.js')).navigateCommand));

  program
    .command('compare')
    .summary('compare two conversations (a fork and its original) from where they part')
    .description(
      'Compares the active branches of two conversations after the last event they share: the actions each took, observations, errors, tokens and cost, the outcome, and (with workspace checkpoints) the files each changed and the files that differ between their results.',
    )
    .argument('<a>', CONVERSATION)
    .argument('<b>', CONVERSATION)
    .option('--json', 'print the comparison as JSON')
    .option(...DATA_DIR)
    .addHelpText('after', examples(['x compare 3f2c1a9e 7b01d4c2', 'the original and its fork, side by side']))
    .action(lazyAction(async () => (await import('../commands/compare.js')).compareCommand));
}

import { type Command, Option } from 'commander';
import { lazyAction } from '../context.js';
import { examples } from './help-text.js';
import { collect, parseIndex } from './parsers.js';

const CONVERSATION =
  'a conversation id (or unique prefix) in the data directory, or the path of a conversation directory';
const DATA_DIR = [
  '--data-dir <dir>',
  'where conversations are looked up (default: $X_HOME/conversations or ~/.x/conversations)',
] as const;

/** The read-only commands: they never write to a conversation directory. */
export function defineConversationCommands(program: Command): void {
  program
    .command('list')
    .alias('ls')
    .summary('list saved conversations')
    .description('Lists the conversations in the data directory, newest first.')
    .option(...DATA_DIR)
    .option('--json', 'one JSON object per line')
    .addHelpText('after', examples(['x list', 'newest first'], ['x list --json | head -1', 'the latest, as JSON']))
    .action(lazyAction(async () => (await import('../commands/list.js')).listCommand));

  program
    .command('replay')
    .summary('show a saved conversation again, event by event')
    .description(
      'Renders a saved conversation with the same view as `x run`. With --until, shows it as it was at that event, with the state derived from the events up to it (time travel).',
    )
    .argument('<conversation>', CONVERSATION)
    .option('--until <index>', 'stop at this event index and show the state at that point', parseIndex)
    .option(
      '--check',
      'run today’s agent against the recorded responses (offline, in a temporary workspace) and fail with a diff at the first request that differs from the recorded one',
    )
    .option(...DATA_DIR)
    .addHelpText(
      'after',
      examples(
        ['x replay 3f2c1a9e', 'the whole conversation'],
        ['x replay 3f2c1a9e --check', 'a regression test: does the agent still ask what it asked then?'],
        ['x replay 3f2c1a9e --until 4', 'as it was at event #4'],
        ['x replay ./conversations/ef2843ff…', 'a directory, also one written by the Python SDK'],
      ),
    )
    .action(lazyAction(async () => (await import('../commands/replay.js')).replayCommand));

  program
    .command('inspect')
    .summary('status, stats and pending actions of a conversation')
    .description(
      'Shows a conversation’s status, iterations, token usage and cost, event counts by kind, pending actions and location.',
    )
    .argument('<conversation>', CONVERSATION)
    .option('--json', 'print the same as JSON')
    .option(...DATA_DIR)
    .addHelpText(
      'after',
      examples(['x inspect 3f2c1a9e', 'a summary'], ['x inspect 3f2c1a9e --json | jq .status', 'just the status']),
    )
    .action(lazyAction(async () => (await import('../commands/inspect.js')).inspectCommand));

  program
    .command('events')
    .summary('list the events of a conversation')
    .description(
      'Lists events (index, time, kind, source, summary), optionally filtered. With --json, prints each event’s JSON, one per line.',
    )
    .argument('<conversation>', CONVERSATION)
    .option('-k, --kind <kind>', 'only this kind (repeatable, or comma-separated; case-insensitive)', collect)
    .addOption(
      new Option('-s, --source <source>', 'only events from this source').choices([
        'agent',
        'user',
        'environment',
        'hook',
      ]),
    )
    .option('--from <index>', 'first index to show', parseIndex)
    .option('--to <index>', 'last index to show (inclusive)', parseIndex)
    .option('--json', 'each event’s JSON, one per line (as stored)')
    .option(...DATA_DIR)
    .addHelpText(
      'after',
      examples(
        ['x events 3f2c1a9e', 'every event'],
        ['x events 3f2c1a9e -k ActionEvent -k ObservationEvent', 'tool calls and results'],
        ['x events 3f2c1a9e --from 10 --to 20 --json', 'raw JSON of events 10–20'],
      ),
    )
    .action(lazyAction(async () => (await import('../commands/events.js')).eventsCommand));

  program
    .command('messages')
    .summary('the LLM messages a conversation produces')
    .description(
      'Prints, as JSON, the messages the model would be sent for this conversation: the LLM view of its events (condensations applied), rendered for an API.',
    )
    .argument('<conversation>', CONVERSATION)
    .addOption(
      new Option(
        '-f, --format <format>',
        'openai (Chat Completions), responses (OpenAI Responses), anthropic (Messages) or langchain (LangChain stored messages)',
      )
        .choices(['openai', 'responses', 'anthropic', 'langchain'])
        .default('openai'),
    )
    .option('--until <index>', 'only the events up to this index', parseIndex)
    .option(...DATA_DIR)
    .addHelpText(
      'after',
      examples(
        ['x messages 3f2c1a9e', 'Chat Completions messages'],
        ['x messages 3f2c1a9e -f anthropic --until 5', 'Anthropic form, early state'],
        ['x messages 3f2c1a9e -f langchain', 'as LangChain stores messages (needs @langchain/core)'],
      ),
    )
    .action(lazyAction(async () => (await import('../commands/messages.js')).messagesCommand));

  program
    .command('verify')
    .summary('check that a conversation’s events were not tampered with')
    .description(
      'Checks the hash chain kept beside the events (in events/.slots/) against the exact bytes of every event file, and names the first altered, removed, reordered or inserted event by index and id (in a segment log, damage to its records by the bytes and the events they held). With --public-key, also checks the head signed with --sign. Also checks the signature of every event signed with x run --signing-key (events/.chain/signatures/), naming each signer’s did:key and the first event whose signature does not verify, and by default any event after the first signed one that has no signature (--require-signatures). Events written before chaining, or by the Python SDK, are reported as unchained. Exit code 5 when it does not verify.',
    )
    .argument('[conversation]', `${CONVERSATION} (default: the current directory)`)
    .option('--public-key <file>', 'Ed25519 public key (PEM) the signed head must verify against')
    .option('--sign <file>', 'after verifying, sign the chain head with this Ed25519 private key (PEM)')
    .option(
      '--database-url <url>',
      'the conversation (an id) is in this PostgreSQL database (x serve --database-url); env X_SERVER_DATABASE_URL',
    )
    .addOption(
      new Option(
        '--require-signatures <which>',
        'which events must be signed: after-first-signed (every event from the first signed one on), all, or none (only check the signatures present)',
      )
        .choices(['after-first-signed', 'all', 'none'])
        .default('after-first-signed'),
    )
    .option('--json', 'print the report as JSON')
    .option(...DATA_DIR)
    .addHelpText(
      'after',
      examples(
        ['x verify 3f2c1a9e', 'check the chain'],
        ['x verify 3f2c1a9e --require-signatures all', 'every event must carry a valid signature'],
        ['x verify 3f2c1a9e --sign ~/.x/key.pem', 'check, then sign the head with your key'],
        ['x verify 3f2c1a9e --public-key ~/.x/key.pub', 'also detect truncation and rewritten chains'],
        ['x verify 3f2c1a9e --database-url postgres://x@db/x', 'a conversation the replicas keep in PostgreSQL'],
      ),
    )
    .action(lazyAction(async () => (await import('../commands/verify.js')).verifyCommand));
}

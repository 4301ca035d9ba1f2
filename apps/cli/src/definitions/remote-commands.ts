import { type Command, Option } from 'commander';
import { lazyAction } from '../context.js';
import { examples } from './help-text.js';
import { collect, parseIndex, parsePort, parsePositiveInteger, parseUrl } from './parsers.js';

const API_KEY = ['--api-key <key>', 'session API key of the server (default: $X_SESSION_API_KEY)'] as const;

/** Commands that start or talk to an @x agent server. */
export function defineRemoteCommands(program: Command): void {
  program
    .command('serve')
    .summary('start the agent server (REST + WebSocket)')
    .description(
      'Starts the @x agent server: a REST API over persistent conversations and a WebSocket stream of their events. Stop it with Ctrl-C (running conversations are paused and saved).',
    )
    .option('--host <host>', 'interface to bind (default: 127.0.0.1, env X_SERVER_HOST)')
    .option('--port <port>', 'port, 0 for any free one (default: 8000, env X_SERVER_PORT)', parsePort)
    .option('--data-dir <dir>', 'server data: conversations/ and workspaces/ (default: $X_HOME/server or ~/.x/server)')
    .option(
      '--workspace-root <dir>',
      "every conversation's working directory must lie in it; the file routes reach nothing outside it (default: <data-dir>/workspaces, env X_SERVER_WORKSPACE_ROOT)",
    )
    .option(
      '--upload-limit <bytes>',
      'largest file /api/file/upload accepts, 413 above (default: 104857600, env X_SERVER_UPLOAD_LIMIT)',
      parsePositiveInteger,
    )
    .option('--api-key <key>', 'require this session API key (repeatable; env SESSION_API_KEY)', collect)
    .option(
      '--allowed-host <host>',
      'also accept this Host header, name or name:port, e.g. a reverse proxy (repeatable; default: loopback names and the bind address)',
      collect,
    )
    .option(
      '--allowed-origin <origin>',
      'also accept requests from pages of this origin, e.g. https://app.example (repeatable; default: same-origin only)',
      collect,
    )
    .option(
      '--insecure-no-key',
      'allow binding beyond loopback without --api-key (anyone who reaches it runs commands)',
    )
    .option('--testing', 'accept scripted offline agents (agent.x_offline_script) from the API: for tests only')
    .option(
      '--unsandboxed',
      'run every conversation’s processes and shell commands WITHOUT a sandbox, with the server’s authority (env X_SERVER_UNSANDBOXED=1); without it, a host without bubblewrap runs no tools',
    )
    .option('--s3-bucket <bucket>', 'store conversations in this S3 bucket instead of --data-dir')
    .option('--s3-prefix <prefix>', 'key prefix in the bucket (default: conversations)')
    .option('--s3-region <region>', 'bucket region (default: AWS_REGION)')
    .option('--s3-endpoint <url>', 'S3-compatible endpoint (MinIO, R2, moto)')
    .option('--s3-force-path-style', 'path-style bucket URLs (MinIO, moto)')
    .option(
      '--database-url <url>',
      'postgres://…: conversations and run ownership in PostgreSQL, shared by any number of replicas (env X_SERVER_DATABASE_URL)',
    )
    .addOption(
      new Option(
        '--interrupted-actions <mode>',
        "a tool call in flight when its run's process died: report it as interrupted (default with --database-url), rerun it, or confirm (wait for a human); without --database-url, set = resume such runs at start-up instead of marking them error (env X_SERVER_INTERRUPTED_ACTIONS)",
      ).choices(['report', 'rerun', 'confirm']),
    )
    .option(
      '--mcp-conversation <file>',
      'JSON file with the create body (agent, llm, tools) of conversations the MCP face (/api/mcp) starts without one',
    )
    .addOption(
      new Option('--log-level <level>', 'server log level (default: warn)').choices([
        'fatal',
        'error',
        'warn',
        'info',
        'debug',
        'trace',
        'silent',
      ]),
    )
    .addHelpText(
      'after',
      examples(
        ['x serve', 'on http://127.0.0.1:8000'],
        ['x serve --port 0 --api-key s3cret', 'any free port, with a session key'],
        ['x serve --host 0.0.0.0 --api-key s3cret', 'on every interface (a key is required)'],
        ['x serve --api-key s3cret --allowed-host agents.example.com', 'behind a reverse proxy'],
        ['x serve --s3-bucket my-bucket --s3-region eu-west-1', 'conversations on S3'],
        ['x serve --database-url postgres://x@db/x --api-key s3cret', 'one of several replicas on PostgreSQL'],
        [
          'x serve --database-url postgres://x@db/x --interrupted-actions confirm',
          'a human decides about tool calls cut off by a dead replica',
        ],
      ),
    )
    .action(lazyAction(async () => (await import('../commands/serve.js')).serveCommand));

  program
    .command('view')
    .summary('open the web viewer on local conversations (no server needed)')
    .description(
      'Serves the web viewer on 127.0.0.1 for one conversation directory (or id) or for the whole data directory, with an in-process agent server. A random session key is printed; the page asks for it once. Stop with Ctrl-C.',
    )
    .argument(
      '[conversation]',
      'a conversation id (or unique prefix) or a conversation directory; default: all conversations',
    )
    .option(
      '--data-dir <dir>',
      'where conversations are looked up (default: $X_HOME/conversations or ~/.x/conversations)',
    )
    .option('--port <port>', 'port (default: any free one)', parsePort)
    .option('--api-key <key>', 'the session key to require (default: a random one, printed)')
    .option('--open', 'also open the page in the desktop browser')
    .addHelpText(
      'after',
      examples(
        ['x view', 'every conversation in the data directory'],
        ['x view 3f2c1a9e --open', 'one conversation, in the browser'],
        ['x view ./conversations/ef2843ff…', 'a directory, also one written by the Python SDK'],
      ),
    )
    .action(lazyAction(async () => (await import('../commands/view.js')).viewCommand));

  program
    .command('tail')
    .summary('follow a conversation on a server, live')
    .description(
      'Shows a server conversation’s events as they happen, with the same view as `x run`. Reconnects by itself after a dropped connection (with growing, jittered delays) and resumes exactly where it stopped. If the first connection fails (no server, wrong URL, no answer within --connect-timeout) it exits 1 at once. Stop with Ctrl-C.',
    )
    .argument('<url>', 'server URL, e.g. http://127.0.0.1:8000', parseUrl)
    .argument('<conversation-id>', 'conversation id on the server')
    .option('--from <index>', 'first event index to show (default: 0, the whole conversation)', parseIndex)
    .option(
      '--connect-timeout <ms>',
      'how long a connection may take to answer before it counts as failed (default: 10000)',
      parsePositiveInteger,
    )
    .option(...API_KEY)
    .addHelpText(
      'after',
      examples(
        ['x tail http://127.0.0.1:8000 3f2c1a9e-…', 'the whole conversation, then live'],
        ['x tail http://127.0.0.1:8000 3f2c1a9e-… --from 40', 'from event #40'],
      ),
    )
    .action(lazyAction(async () => (await import('../commands/tail.js')).tailCommand));

  program
    .command('send')
    .summary('send a message to a conversation on a server')
    .description(
      'Adds a user message to a server conversation. With --run, also starts a run and shows its events until it ends.',
    )
    .argument('<url>', 'server URL, e.g. http://127.0.0.1:8000', parseUrl)
    .argument('<conversation-id>', 'conversation id on the server')
    .argument('<message>', 'the message text')
    .option('--run', 'start a run and follow it until it ends')
    .option(...API_KEY)
    .addHelpText(
      'after',
      examples(
        ['x send http://127.0.0.1:8000 3f2c1a9e-… "Also add tests"', 'queue a message'],
        ['x send http://127.0.0.1:8000 3f2c1a9e-… "Go on" --run', 'and run it, showing events'],
      ),
    )
    .action(lazyAction(async () => (await import('../commands/send.js')).sendCommand));
}

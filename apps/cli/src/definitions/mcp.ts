import { type Command, Option } from 'commander';
import { lazyAction } from '../context.js';
import { collectSandboxLimit } from '../run/sandbox-limit-flag.js';
import { examples } from './help-text.js';
import { collect, parsePositiveInteger } from './parsers.js';

export function defineMcp(program: Command): void {
  program
    .command('mcp')
    .summary('serve x as an MCP server on stdin/stdout')
    .description(
      'Serves the agent as a Model Context Protocol server over stdio, for MCP clients (Claude Desktop, IDEs, the MCP Inspector) that start their servers as processes. Its tools: start_conversation, send_message, run (with progress notifications), get_conversation, list_conversations, confirm_actions.\n\nConversations are saved in the data directory, as with `x run`, and run on the same model (X_MODEL and the provider keys, or the flags), in the workspace, under the same sandbox policy. stdout carries only the protocol; warnings go to stderr. When the client closes the connection, runs still going are paused (continue them with the run tool or `x run --resume`).',
    )
    .option('-w, --workspace <dir>', 'directory the agent works in (default: the current directory)')
    .option('--data-dir <dir>', 'where conversations are saved (default: $X_HOME/conversations or ~/.x/conversations)')
    .option('-m, --model <name>', 'model, optionally prefixed by its provider (default: $X_MODEL)')
    .addOption(
      new Option('--provider <name>', 'wire protocol, when the model name does not say (default: $X_PROVIDER)').choices(
        ['openai', 'openai-responses', 'anthropic', 'gemini'],
      ),
    )
    .option('--base-url <url>', "the provider's endpoint (default: $OPENAI_BASE_URL, …)")
    .addOption(
      new Option(
        '--confirm <policy>',
        'actions wait for confirm_actions: never (default), always, or risky (the model rates each action)',
      ).choices(['never', 'always', 'risky']),
    )
    .option('--max-iterations <n>', 'stop a run after this many agent steps (default: 500)', parsePositiveInteger)
    .option('--sandbox', 'run the agent’s processes in a bubblewrap sandbox (the default), as `x run`')
    .option('--allow-network [hosts]', 'let sandboxed processes reach the network: all, or these hosts')
    .option('--allow-private-networks', 'with --allow-network <hosts>: the hosts may resolve into private networks')
    .option('--allow-read <path>', 'also mount this host path read-only in the sandbox (repeatable)', collect)
    .option('--allow-write <path>', 'also mount this host path writable in the sandbox (repeatable)', collect)
    .option('--unsandboxed', 'run the agent’s processes WITHOUT a sandbox, with your authority')
    .option(
      '--sandbox-limit <name=value>',
      'a resource limit of the sandbox (repeatable), as `x run`: memory=512M, processes=256, file-size=2G, or NAME=unlimited',
      collectSandboxLimit,
    )
    .addHelpText(
      'after',
      examples(
        ['x mcp', 'an MCP server over stdio, in the current directory'],
        ['npx @modelcontextprotocol/inspector-cli --cli x mcp --method tools/list', 'list its tools'],
        ['{"mcpServers": {"x": {"command": "x", "args": ["mcp", "-w", "/path/to/project"]}}}', 'a client config'],
      ),
    )
    .action(lazyAction(async () => (await import('../commands/mcp.js')).mcpCommand));
}

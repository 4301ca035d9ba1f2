import { type Command, Option } from 'commander';
import { lazyAction } from '../context.js';
import { collectSandboxLimit } from '../run/sandbox-limit-flag.js';
import { examples } from './help-text.js';
import { collect, collectEnv, parseDollars, parsePositiveInteger } from './parsers.js';

export function defineRun(program: Command): void {
  program
    .command('run')
    .summary('run an agent on a task in this directory')
    .description(
      'Runs an agent on a task, with the current directory (or --workspace) as its workspace, and shows its events as they happen. The conversation is saved under the data directory so it can be replayed, inspected or resumed.\n\nWith an API key of a provider set it uses that provider: OPENAI_API_KEY (OpenAI or any OpenAI-compatible endpoint via OPENAI_BASE_URL), ANTHROPIC_API_KEY (Claude), GEMINI_API_KEY (Gemini). The provider follows the model name (anthropic/claude-sonnet-4-6, gemini/gemini-2.5-flash, openai/gpt-4o, openai/o4-mini) or --provider; without a key there is no model to run the task with, so it stops with exit code 1 (try --demo for the built-in offline demo).\n\nWith --json, stdout carries only the run’s events, one JSON object a line (NDJSON, the reference’s event format), for scripts; the header, prompts and the closing summary go to stderr.',
    )
    .argument('[task]', 'what the agent should do')
    .option('-w, --workspace <dir>', 'directory the agent works in (default: the current directory)')
    .option('--data-dir <dir>', 'where conversations are saved (default: $X_HOME/conversations or ~/.x/conversations)')
    .option(
      '-m, --model <name>',
      "model, optionally prefixed by its provider: anthropic/…, gemini/…, openai/… (default: $X_MODEL, else the first provider with a key's default)",
    )
    .addOption(
      new Option('--provider <name>', 'wire protocol, when the model name does not say (default: $X_PROVIDER)').choices(
        ['openai', 'openai-responses', 'anthropic', 'gemini'],
      ),
    )
    .option(
      '--base-url <url>',
      "the provider's endpoint (default: $OPENAI_BASE_URL, $ANTHROPIC_BASE_URL or $GEMINI_BASE_URL)",
    )
    .addOption(
      new Option(
        '--confirm <policy>',
        'ask before actions run: never (default), always, or risky (the model rates each action; unknown risks ask)',
      ).choices(['never', 'always', 'risky']),
    )
    .option('--max-iterations <n>', 'stop after this many agent steps (default: 500)', parsePositiveInteger)
    .option(
      '--max-budget <usd>',
      'stop before the model call that would take the conversation’s spend (sub-agents included) past this many dollars; saved with the conversation (exit code 6). With --resume it replaces the saved budget: raise it to continue',
      parseDollars,
    )
    .option(
      '--allow-unknown-cost',
      'with --max-budget: let a model of unknown cost (no price, no usage reported) run; by default it stops the run, never counted as $0',
    )
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
    .option(
      '--repair-log-gap',
      'with --resume, when an event file (and its slot claim) was lost in the middle of the log: move the events past it aside to events-past-gap-<index>/ and go on from the gap (never done without it)',
    )
    .option(
      '--wait',
      'when another process is running the conversation, wait for it to finish (then go on from where it left off) instead of failing',
    )
    .option(
      '--env <name[=value]>',
      'pass a variable to the agent’s shell: NAME copies it from here, NAME=VALUE sets it (repeatable). The shell otherwise gets only PATH, HOME, USER, SHELL, LANG/LC_*, TERM, TMPDIR, TZ; credentials (*_KEY, *_TOKEN, AWS_*, OPENAI_*, …) are never copied',
      collectEnv,
    )
    .option(
      '--sandbox',
      'run the agent’s processes (terminal, hooks, MCP stdio servers) in a bubblewrap sandbox: the workspace writable, the rest of the system read-only, no network, no host secrets (the default)',
    )
    .option(
      '--allow-network [hosts]',
      'let sandboxed processes reach the network: all of it, or only these hosts (comma-separated: example.com,*.example.com,127.0.0.1:8080)',
    )
    .option(
      '--allow-private-networks',
      'with --allow-network <hosts>: the hosts may resolve into private networks (10/8, 172.16/12, 192.168/16, fc00::/7, ...), refused by default; never this machine',
    )
    .option('--allow-read <path>', 'also mount this host path read-only in the sandbox (repeatable)', collect)
    .option('--allow-write <path>', 'also mount this host path writable in the sandbox (repeatable)', collect)
    .option(
      '--unsandboxed',
      'run the agent’s processes WITHOUT a sandbox, with your authority (your files, credentials, network): an explicit opt-out',
    )
    .option(
      '--sandbox-limit <name=value>',
      'a resource limit of the sandbox (repeatable): memory, processes, file-size, cpu-time, wall-time or output, =a number with an optional unit (memory=512M, file-size=2G, cpu-time=5m) or =unlimited to turn it off (warned about). Defaults: memory 4G, processes 1024, file-size 4G',
      collectSandboxLimit,
    )
    .option('--stream', 'show the model’s tokens as they arrive')
    .option(
      '--checkpoints',
      'capture the workspace after every step (beside the conversation), so `x navigate` and `x fork` restore the files of that point; on by itself when resuming a conversation that has them',
    )
    .option(
      '--approval-rules <file>',
      'JSON array of approval rules deciding per tool and argument pattern: [{"tool": "terminal", "arguments": {"command": "ls( -la)?"}, "status": "approved"}] (statuses approved, denied with "reason", user-approval, not-applicable; an approving pattern must match the whole value, the others match anywhere)',
    )
    .option(
      '--mcp-config <file>',
      'JSON file of MCP servers whose tools the agent gets ({"mcpServers": {name: {command, args, env} or {url}}})',
    )
    .option('--no-skills', 'do not load AGENTS.md and the skill directories (.openhands/skills, …) of the workspace')
    .option('--user-skills', "also load the user's own skills from $X_HOME/skills (default ~/.x/skills)")
    .option(
      '--hooks <file>',
      'hook configuration (JSON, the .openhands/hooks.json format); default: .openhands/hooks.json in the workspace, else ~/.openhands/hooks.json',
    )
    .option('--no-hooks', 'run no hooks, not even those of the default hook files')
    .option(
      '--sub-agents',
      'give the agent the delegate tool: it can spawn sub-agents and run tasks on them in parallel',
    )
    .option(
      '--demo',
      'run the built-in demo task on the offline model in a fresh workspace under $X_HOME/demo-workspaces',
    )
    .option('--json', 'print the events as NDJSON on stdout (one JSON event a line) and nothing else there')
    .option(
      '--signing-key <file>',
      'sign every event of the run with this Ed25519 private key (PEM); x verify checks the signatures',
    )
    .addHelpText(
      'after',
      examples(
        ['x run --demo', 'the offline demo: create hello.txt and show it'],
        ['x run "List the TODOs in src/"', 'a task in the current directory'],
        ['OPENAI_API_KEY=sk-… x run -m gpt-4o "Fix the failing test"', 'a real model'],
        ['x run --confirm always "Clean up build/"', 'approve each action with y/n'],
        ['x run --resume 3f2c1a "Now add tests"', 'continue a saved conversation'],
        ['x run --max-budget 0.50 "Fix the failing test"', 'stop before spending more than $0.50'],
        ['x run --resume 3f2c1a --max-budget 1.00', 'raise the budget of a run that stopped on it, and continue'],
        ['x run --mcp-config mcp.json "Fetch the docs"', 'give the agent the tools of MCP servers'],
        ['x run --hooks hooks.json "Tidy up"', 'run shell hooks before and after tools'],
        ['x run --allow-network pypi.org,files.pythonhosted.org "Add requests"', 'sandboxed, with those hosts only'],
        ['x run --unsandboxed "Fix my dotfiles"', 'no sandbox: commands run with your authority'],
        ['x run --json "Summarize README.md" | jq -c .kind', 'the events as NDJSON, for scripts'],
        ['x run --signing-key key.pem "Tidy up"', "sign every event (its signer: the key's did:key)"],
      ),
    )
    .action(lazyAction(async () => (await import('../commands/run.js')).runCommand));
}

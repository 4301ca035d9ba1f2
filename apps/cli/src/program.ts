import { Command } from 'commander';
import { defineConversationCommands } from './definitions/conversation-commands.js';
import { defineEvalCommands } from './definitions/eval-commands.js';
import { colorFlagFromArgv, helpColorsEnabled } from './definitions/help-text.js';
import { defineMcp } from './definitions/mcp.js';
import { defineRemoteCommands } from './definitions/remote-commands.js';
import { defineRun } from './definitions/run.js';
import { defineTreeCommands } from './definitions/tree-commands.js';
import { colorsEnabled, createColors } from './render/colors.js';

const style = createColors(true);
const USAGE_HINT = '(add --help for usage and examples)';

/** The `x` program. Commands load their implementation only when they run. */
export function createProgram(version: string): Command {
  const program = new Command('x');
  program
    .description('Run, watch, replay and inspect LLM agent conversations from the terminal.')
    .version(version, '-v, --version', 'print the version')
    .option('--color', 'force colored output (default: only on a terminal)')
    .option('--no-color', 'no colors (also NO_COLOR=1)')
    .option('--verbose', 'log diagnostics to stderr (with serve: the server log at level info)')
    .helpOption('-h, --help', 'show help for a command')
    .helpCommand('help [command]', 'show help for a command')
    .showSuggestionAfterError(true)
    // Plain text, dimmed in writeErr only when stderr gets colors (never under NO_COLOR or off a terminal).
    .showHelpAfterError(USAGE_HINT)
    .exitOverride()
    .configureHelp({
      showGlobalOptions: true,
      styleTitle: (text) => style.bold(text),
      styleCommandText: (text) => style.cyan(text),
      styleSubcommandText: (text) => style.cyan(text),
      styleOptionText: (text) => style.yellow(text),
      styleArgumentText: (text) => style.green(text),
    })
    .configureOutput({
      getOutHasColors: () => helpColorsEnabled(false),
      getErrHasColors: () => helpColorsEnabled(true),
      writeErr: (text) => {
        const hint = `${USAGE_HINT}\n`;
        process.stderr.write(text === hint && helpColorsEnabled(true) ? `${style.dim(USAGE_HINT)}\n` : text);
      },
      outputError: (text, write) => {
        const c = createColors(
          colorsEnabled({ flag: colorFlagFromArgv(), env: process.env, isTTY: process.stderr.isTTY === true }),
        );
        write(text.replace(/^error:/, c.red(c.bold('error:'))));
      },
    });

  defineRun(program);
  defineConversationCommands(program);
  defineTreeCommands(program);
  defineRemoteCommands(program);
  defineEvalCommands(program);
  defineMcp(program);

  program.addHelpText(
    'after',
    () => `
Exit codes: 0 ok · 1 the run ended in error, got stuck or failed · 2 usage error · 3 not found · 4 partly shown: some files unreadable (named on stderr) · 5 verify: tampered · 130 interrupted
Environment: OPENAI_API_KEY, OPENAI_BASE_URL, X_MODEL, X_HOME (data: $X_HOME/conversations), NO_COLOR, X_DEBUG=1

Start with: x run --demo`,
  );
  return program;
}

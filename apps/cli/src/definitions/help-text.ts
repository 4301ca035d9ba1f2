import type { AddHelpTextContext } from 'commander';
import { colorsEnabled, createColors } from '../render/colors.js';

/** `--color` / `--no-color` as typed, before commander has parsed anything (help is printed early). */
export function colorFlagFromArgv(argv: readonly string[] = process.argv): boolean | undefined {
  const last = argv.findLast((arg) => arg === '--color' || arg === '--no-color');
  return last === undefined ? undefined : last === '--color';
}

export function helpColorsEnabled(toStderr: boolean): boolean {
  const stream = toStderr ? process.stderr : process.stdout;
  return colorsEnabled({ flag: colorFlagFromArgv(), env: process.env, isTTY: stream.isTTY === true });
}

/** The "Examples:" section under a command's help. `[command line, what it does]` pairs. */
export function examples(...lines: [string, string][]): (context: AddHelpTextContext) => string {
  return (context) => {
    const c = createColors(helpColorsEnabled(context.error));
    const width = Math.max(...lines.map(([command]) => command.length));
    const rows = lines.map(([command, what]) => `  ${c.cyan(`$ ${command.padEnd(width)}`)}  ${c.dim(what)}`);
    return `\n${c.bold('Examples:')}\n${rows.join('\n')}`;
  };
}

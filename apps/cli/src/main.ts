// The `x` command itself. bin.ts imports it once the compile cache is on; importing it runs the command.
import { readFileSync } from 'node:fs';
import { CommanderError } from 'commander';
import { colorFlagFromArgv } from './definitions/help-text.js';
import { ExitCode } from './errors.js';
import { createProgram } from './program.js';
import { colorsEnabled, createColors } from './render/colors.js';
import { reportError } from './report-error.js';

function version(): string {
  const json = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof json.version === 'string' ? json.version : '0.0.0';
}

// `x events … | head`: the reader went away, which is not an error of ours.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(ExitCode.ok);
    throw error;
  });
}

async function main(): Promise<number> {
  const program = createProgram(version());
  try {
    await program.parseAsync(process.argv);
    return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.ok;
  } catch (error) {
    // Commander has already printed its message (or the help / version that ends it).
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    const enabled = colorsEnabled({
      flag: colorFlagFromArgv(),
      env: process.env,
      isTTY: process.stderr.isTTY === true,
    });
    return reportError(error, createColors(enabled));
  }
}

// Exit explicitly (after the output is flushed) so a lingering connection or timer cannot hold the
// process open after the command is done.
void main().then((code) => {
  process.stdout.write('', () => {
    process.stderr.write('', () => process.exit(code));
  });
});

// Child process for terminal-shutdown.test.ts: starts long-running commands in the terminal tool's shell, prints
// their pids as one JSON line, then ends the way argv[2] says (`exit`: process.exit; `throw`: an uncaught error).
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTerminalTool } from '../../src/tools/terminal-tool.js';
import { spawnLongRunningCommands } from './long-running-commands.js';

const terminal = createTerminalTool();
const workspace = await realpath(await mkdtemp(join(tmpdir(), 'x-terminal-child-')));
const pids = await spawnLongRunningCommands(terminal, { workspace, conversationId: 'child' });
process.stdout.write(`${JSON.stringify(pids)}\n`);
if (process.argv[2] === 'throw') throw new Error('the host crashed');
process.exit(0);

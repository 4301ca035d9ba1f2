import type { Tool, ToolContext } from '../../src/index.js';
import { hostPids, PRINT_PID_NAMESPACE } from '../../src/testing/index.js';

/**
 * Starts, in the terminal's shell, processes that outlive the command: a background job, a job that left the
 * shell's process group and session (`setsid`), and the child of a background subshell. Returns the shell's pid
 * and theirs, as the host knows them (inside the sandbox they are pids of its own PID namespace).
 */
export async function spawnLongRunningCommands(terminal: Tool, context: ToolContext): Promise<number[]> {
  const command = [
    'sleep 1001 & a=$!',
    'setsid sleep 1002 & b=$!',
    "bash -c 'sleep 1003 & echo $! > nested.pid; wait' & c=$!",
    'while [ ! -s nested.pid ]; do sleep 0.02; done',
    `echo "[$$,$a,$b,$c,$(cat nested.pid)] $(${PRINT_PID_NAMESPACE})"; rm nested.pid`,
  ].join('; ');
  const observation = await terminal.execute({ command, kind: 'TerminalAction' }, context);
  const text = (observation.content as { text?: string }[]).map((part) => part.text ?? '').join('');
  const match = /(\[[\d,]+\]) (pid:\[\d+\])/.exec(text);
  if (match === null) throw new Error(`the terminal printed no pids: ${text}`);
  return hostPids(match[2] as string, JSON.parse(match[1] as string) as number[]);
}

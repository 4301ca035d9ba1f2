/**
 * The terminal tool's texts that state its soft timeout. The reference's description says 10 seconds while its
 * (and our) default is 30; a model told the wrong figure sets `timeout` wrongly, so the figure is the configured one.
 */

/** Default of `TerminalToolOptions.noChangeTimeoutSeconds` (the reference's). */
export const defaultNoChangeTimeoutSeconds = 30;

/** `1 second`, `30 seconds`, `0.5 seconds`. */
function secondsText(seconds: number): string {
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}

/** The `timeout` parameter's description, stating the soft timeout that applies when it is left out. */
export function timeoutParameterDescription(noChangeTimeoutSeconds: number): string {
  return (
    'Optional. Sets a maximum time limit (in seconds) for running the command. If the command takes longer ' +
    'than this limit, you’ll be asked whether to continue or stop it. If you don’t set a value, the command ' +
    `will instead pause and ask for confirmation when it produces no new output for ${secondsText(noChangeTimeoutSeconds)}. ` +
    'Use a higher value if the command is expected to take a long time (like installation or testing), or if it ' +
    'has a known fixed duration (like sleep).'
  );
}

/** The reference's `UNIX_TOOL_DESCRIPTION`, with the soft timeout the tool actually applies. */
export function terminalDescription(noChangeTimeoutSeconds: number): string {
  return [
    'Execute a shell command in the terminal within a persistent shell session.',
    '',
    '',
    '### Command Execution',
    '* One command at a time: You can only execute one shell command at a time.',
    '  If you need to run multiple commands sequentially, use `&&` or `;`.',
    '* Persistent session: Environment variables, virtual environments, and',
    '  working directory changes persist across commands.',
    `* Soft timeout: Commands pause for confirmation after ${secondsText(noChangeTimeoutSeconds)} without`,
    '  new output unless you provide a longer `timeout`.',
    '* Shell options: Do NOT use `set -e`, `set -eu`, or `set -euo pipefail`.',
    '  The runtime may not support them reliably.',
    '',
    '### Long-running Commands',
    '* For commands that may run indefinitely, run them in the background and',
    '  redirect output to a file, e.g. `python3 app.py > server.log 2>&1 &`.',
    '* For long-running commands, set the `timeout` parameter accordingly.',
    '* If a command returns exit code `-1`, it hit the soft timeout and is',
    '  still running. With `is_input=true`, you can:',
    '  - Send empty `command` to retrieve additional logs',
    '  - Send text to STDIN of the running process',
    '  - Send control commands like `C-c`, `C-d`, or `C-z`',
    '  - Send navigation keys like `UP`, `DOWN`, `LEFT`, `RIGHT`, `TAB`,',
    '    `ESC`, `BS`, `HOME`, `END`, `PGUP`, and `PGDN`',
    '  - Send any `C-<letter>` Ctrl sequence such as `C-a`, `C-e`, or `C-l`',
    '',
    '### Best Practices',
    '* Verify a parent directory exists before creating files or directories.',
    '* Prefer absolute paths and avoid excessive use of `cd`.',
    '',
    '### Output Handling',
    '* Large output may be truncated before being returned.',
    '',
    '### Terminal Reset',
    '* Set `reset=true` to create a fresh terminal session if the current one',
    '  becomes unresponsive.',
    '* Resetting the terminal clears environment variables, working directory',
    '  changes, and running processes.',
  ].join('\n');
}

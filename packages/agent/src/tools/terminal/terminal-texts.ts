/** Texts of the reference's terminal, word for word (the model was trained on them). */

export const timeoutMessage =
  "You may wait longer to see additional output by sending empty command '', send other commands to interact " +
  'with the current process, send keys ("C-c", "C-z", "C-d") to interrupt/kill the previous command before ' +
  'sending your new command, or use the timeout parameter in terminal for future commands.';

export const resetText =
  'Terminal session has been reset. All previous environment variables and session state have been cleared.';

export const continuePrefix = '[Below is the output of the previous command.]\n';

export const noPreviousToRead = 'No previous running command to retrieve logs from.';
export const noPreviousToInteract = 'No previous running command to interact with.';

export function notExecutedSuffix(command: string): string {
  return (
    `\n[Your command "${command}" is NOT executed. The previous command is still running - You CANNOT send new ` +
    'commands until the previous command is completed. By setting `is_input` to `true`, you can interact with ' +
    `the current process: ${timeoutMessage}]`
  );
}

/** Python's `str(float)` for the whole numbers a timeout usually is: `5` → `5.0`. */
export function pythonFloat(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

/** The reference's hint when `command` holds a Python/JSON literal instead of a shell command. */
export function literalArgumentHint(kind: string, head: string): string {
  return (
    `[Tool-argument error] The \`command\` argument looks like a Python/JSON ${kind}, not a shell command. ` +
    `It starts with: ${pythonStrRepr(head)}\n\n` +
    'The `terminal` tool runs exactly ONE shell command at a time. To pass structured data or multi-line code:\n' +
    '  - Write a script first with `file_editor` (command="create", path="/tmp/run.py", ...), then invoke it: ' +
    '`python /tmp/run.py`.\n' +
    '  - Or use a heredoc inline, e.g.:\n' +
    "        python - <<'EOF'\n" +
    "        DATABASES = {'default': {...}}\n" +
    '        # your code here\n' +
    '        EOF\n\n' +
    'Do not put a Python list/dict literal into the `command` field; the shell cannot interpret it.'
  );
}

/** The reference's `looks_like_python_literal_argument`. */
export function pythonLiteralKind(command: string): string | undefined {
  const stripped = command.trimStart();
  if (stripped.length < 2) return undefined;
  const [a, b] = [stripped[0], stripped[1]];
  if (a === '[' && (b === '{' || b === '"' || b === "'")) return 'list literal';
  if (a === '[' && b === '[') {
    return stripped.length >= 3 && stripped[2] !== ' ' && stripped[2] !== '\t' ? 'nested list literal' : undefined;
  }
  if (a === '{' && (b === '"' || b === "'")) return 'dict literal';
  return undefined;
}

/** Python's `repr` of a str (enough for a command head: quotes and backslashes). */
function pythonStrRepr(value: string): string {
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  const escaped = value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote;
}

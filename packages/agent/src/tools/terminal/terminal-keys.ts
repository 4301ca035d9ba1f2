/** Named keys the reference's terminal accepts with `is_input`, as the bytes a terminal would send. */
const namedKeys: Readonly<Record<string, string>> = {
  ENTER: '\n',
  TAB: '\t',
  BS: '\x7f',
  ESC: '\x1b',
  UP: '\x1b[A',
  DOWN: '\x1b[B',
  RIGHT: '\x1b[C',
  LEFT: '\x1b[D',
  HOME: '\x1b[H',
  END: '\x1b[F',
  PGUP: '\x1b[5~',
  PGDN: '\x1b[6~',
};

/** What an `is_input` command becomes: a signal for C-c and C-\, else the bytes to write to stdin. */
export type TerminalInput = { kind: 'signal'; signal: NodeJS.Signals } | { kind: 'write'; data: string };

/** The reference's `_is_special_key`: `C-<letter>`. */
export function isControlKey(command: string): boolean {
  const trimmed = command.trim();
  return trimmed.startsWith('C-') && trimmed.length === 3;
}

/**
 * The shell reads from a pipe, not a terminal, so nothing turns ^C into SIGINT: C-c and C-\ are delivered as the
 * signals a terminal would raise (C-z is written as its byte: stopping the shell's group would hang it); other keys are written as their bytes; text gets a newline (Enter).
 */
export function terminalInput(command: string): TerminalInput {
  const upper = command.trim().toUpperCase();
  if (upper === 'C-C') return { kind: 'signal', signal: 'SIGINT' };
  if (upper === 'C-\\') return { kind: 'signal', signal: 'SIGQUIT' };
  const named = namedKeys[upper];
  if (named !== undefined) return { kind: 'write', data: named };
  if (isControlKey(command)) {
    const letter = upper.charCodeAt(2);
    return { kind: 'write', data: String.fromCharCode(letter & 0x1f) };
  }
  return { kind: 'write', data: command.endsWith('\n') ? command : `${command}\n` };
}

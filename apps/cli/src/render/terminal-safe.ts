/**
 * What a conversation holds is not ours: a model's reply, a command's output, a web page, an MCP server's tool
 * name. Printed raw, its control characters drive the terminal: an OSC sequence sets the title or writes the
 * clipboard (OSC 52), a CSI sequence moves the cursor or erases the screen, `\r` and `\b` overwrite what was
 * shown, and bidirectional overrides reorder it. Any of them can make a command waiting for approval read as
 * something else. So every text that comes from a conversation is shown with its control characters spelled out
 * (`\x1b`, `\r`, `\u202e`), and the output streams spell out any that still arrive (see `terminalOutput`).
 */

/** C0 controls but tab and newline, DEL, C1 controls, and the bidirectional embeddings, overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching raw control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The same, with ESC left to `terminalOutput`, which keeps the color sequences the CLI writes itself. */
const CONTROL_BUT_ESC =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching raw control characters is the point
  /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** An SGR sequence (colors, bold, dim): the only escape sequences the CLI itself writes. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching raw control characters is the point
const ESCAPE = /\u001b(\[[0-9;]*m)?/g;

const NAMED: Record<string, string> = { '\r': '\\r', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\u001b': '\\x1b' };

function spelled(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** A text from a conversation, with every control character spelled out: safe to print anywhere. */
export function terminalText(text: string): string {
  return text.replace(CONTROL, spelled);
}

/**
 * A value from a conversation (an event, a state) with every string in it made `terminalText`, keys included,
 * so a renderer can read any field of it. Objects come back as plain objects.
 */
export function terminalSafe<T>(value: T): T {
  return safeValue(value) as T;
}

function safeValue(value: unknown): unknown {
  if (typeof value === 'string') return terminalText(value);
  if (Array.isArray(value)) return value.map(safeValue);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // A `__proto__` field (a model's tool argument) stays a field: assigned, it would become the copy's prototype,
    // and a renderer reading a field the event lacks (`command`, `path`) would show the model's value instead.
    if (key === '__proto__') {
      Object.defineProperty(copy, key, {
        value: safeValue(item),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else copy[terminalText(key)] = safeValue(item);
  }
  return copy;
}

/**
 * What the CLI writes to stdout or stderr: its own color sequences kept, every other control character spelled
 * out. The last guard for a text that reached a line without `terminalText`.
 */
export function terminalOutput(text: string): string {
  return text
    .replace(CONTROL_BUT_ESC, spelled)
    .replace(ESCAPE, (sequence, sgr: string | undefined) => (sgr === undefined ? '\\x1b' : sequence));
}

import type { Span } from './decoded-runs.js';

/**
 * What a terminal draws without a glyph, and what it discards: ANSI/ECMA-48 escape sequences (CSI `ESC [` with its
 * 8-bit form, colours and cursor moves; OSC `ESC ]`, DCS, SOS, PM and APC strings up to BEL or ST, hyperlinks and
 * titles; the short `ESC x` sequences), the other C0 and C1 controls (tab and line feed excepted), a carriage return
 * not followed by a line feed, and invisible characters (zero-width space, joiners, word joiner, BOM, soft hyphen,
 * bidirectional marks). `grep --color=always` or `ls --color` put such codes inside a token, and a command may add
 * them on purpose; the text a terminal shows stays the same, so the value must be found in it.
 */
const invisible = String.raw`\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0`;
const controls = new RegExp(
  [
    String.raw`(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?`,
    String.raw`(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x00-\x1f\x9c]*(?:\x07|\x1b\\|\x9c)?`,
    String.raw`\x1b[ -/]*[0-~]?`,
    String.raw`[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f${invisible}]`,
    String.raw`\r(?!\n)`,
  ].join('|'),
  'gu',
);
const anyControl = new RegExp(String.raw`[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f${invisible}]|\r(?!\n)`, 'u');

/** The text without controls, and for each of its characters the index it had in the original text. */
export interface TerminalView {
  text: string;
  origins: Int32Array;
  /** Characters drawn over another (`s\bs`): where the one they overstrike was, so that a span takes in both. */
  overstrikes: Map<number, number>;
}

/**
 * The text as a terminal shows it, roughly: controls and invisible characters removed, and a backspace overstrike
 * (`s\bs` bold, `_\bs` underline, as `man` writes) reduced to the character drawn last. Undefined when the text
 * holds none of them (almost always), so the caller looks once.
 */
export function terminalView(text: string): TerminalView | undefined {
  if (!anyControl.test(text)) return undefined;
  const chunks: string[] = [];
  const origins = new Int32Array(text.length);
  let length = 0;
  const overstrikes = new Map<number, number>();
  let overstruck = -1;
  const keep = (from: number, to: number) => {
    if (to <= from) return;
    chunks.push(text.slice(from, to));
    if (overstruck !== -1) overstrikes.set(length, overstruck);
    overstruck = -1;
    for (let index = from; index < to; index++) origins[length++] = index;
  };
  let cursor = 0;
  controls.lastIndex = 0;
  for (let match = controls.exec(text); match !== null; match = controls.exec(text)) {
    keep(cursor, match.index);
    cursor = match.index + match[0].length;
    if (match[0] !== '\b' || length === 0) continue;
    const last = chunks.length - 1;
    const previous = (chunks[last] as string).slice(-1);
    if (previous !== '_' && previous !== text[cursor]) continue;
    chunks[last] = (chunks[last] as string).slice(0, -1);
    if (chunks[last] === '') chunks.pop();
    length -= 1;
    overstruck = overstrikes.get(length) ?? (origins[length] as number);
  }
  keep(cursor, text.length);
  return { text: chunks.join(''), origins: origins.subarray(0, length), overstrikes };
}

/** A span of the view as a span of the original text, covering every control between its first and last char. */
export function originalSpan(view: TerminalView, [start, end]: Span): Span {
  return [view.overstrikes.get(start) ?? (view.origins[start] as number), (view.origins[end - 1] as number) + 1];
}

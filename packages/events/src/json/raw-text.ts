/**
 * The JSON text each parsed event was read from. Events are frozen, so an event that still has its
 * text is unchanged since it was read, and writing it back as that text keeps every byte: key order,
 * Python's number spellings (`1.0`, `1e-07`, which `JSON.parse` turns into `1` and `1e-7`) and fields
 * this version does not type. A WeakMap keeps the text only as long as the event lives.
 */
const rawText = new WeakMap<object, string>();

export function rememberRawText(event: object, text: string): void {
  rawText.set(event, text);
}

/** The text `event` was parsed from, when it came from `parseEventJson` (or a copy of that text). */
export function rawEventText(event: object): string | undefined {
  return rawText.get(event);
}

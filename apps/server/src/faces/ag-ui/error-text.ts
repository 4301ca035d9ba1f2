/**
 * The one rule for an error's text a client of this face is shown (a RUN_ERROR's `message`, a failed tool call's
 * result): the text the log event or the thrown error carries when it says something, else `fallback`. An empty
 * or blank text says nothing, so it counts as none: a client would show the user an error of no words.
 */
export function errorTextOr(text: string | undefined, fallback: string): string {
  return text !== undefined && text.trim() !== '' ? text : fallback;
}

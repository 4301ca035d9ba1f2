/** The most characters of a client's value an error text quotes. */
export const CLIENT_TEXT_LIMIT = 100;

/**
 * A value the client sent, as an error text quotes it: whole when short, else its first `CLIENT_TEXT_LIMIT`
 * characters and `…`. An error text quoting a header, an id, a method name or a path of any length would let a client
 * write what it likes, as long as it likes, into the server's answers (and a body as large as its request); the start
 * of the value is enough to tell which one was wrong.
 */
export function clientText(value: unknown): string {
  const text = String(value);
  if (text.length <= CLIENT_TEXT_LIMIT) return text;
  // Not half a surrogate pair at the cut.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(CLIENT_TEXT_LIMIT - 1)) ? CLIENT_TEXT_LIMIT - 1 : CLIENT_TEXT_LIMIT;
  return `${text.slice(0, end)}…`;
}

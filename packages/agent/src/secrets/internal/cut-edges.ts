/**
 * Output cut in the middle (a command's head and tail, kept while the middle streamed past) can split a secret:
 * the head then ends with its first characters and the tail starts with its last ones, and masking, which looks
 * for whole values, finds neither. These hide such a piece at the edge of a cut.
 *
 * A piece shorter than this stays: two characters give away no more than a guess, and hiding every character that
 * happens to start a value would blot out ordinary text at every cut.
 */
const shortestHiddenPiece = 3;

/** `head` with its longest trailing piece that is how one of `values` starts replaced by `placeholder`. */
export function hideValueStartAtEnd(head: string, values: readonly string[], placeholder: string): string {
  let longest = 0;
  for (const value of values) {
    for (let length = Math.min(value.length - 1, head.length); length >= shortestHiddenPiece; length--) {
      if (length <= longest) break;
      if (head.endsWith(value.slice(0, length))) longest = length;
    }
  }
  return longest === 0 ? head : head.slice(0, head.length - longest) + placeholder;
}

/** `tail` with its longest leading piece that is how one of `values` ends replaced by `placeholder`. */
export function hideValueEndAtStart(tail: string, values: readonly string[], placeholder: string): string {
  let longest = 0;
  for (const value of values) {
    for (let length = Math.min(value.length - 1, tail.length); length >= shortestHiddenPiece; length--) {
      if (length <= longest) break;
      if (tail.startsWith(value.slice(value.length - length))) longest = length;
    }
  }
  return longest === 0 ? tail : placeholder + tail.slice(longest);
}

/** Splits text into pieces of at most `parts` roughly equal sizes (at least one, possibly empty): stream deltas. */
export function splitText(text: string, parts: number): string[] {
  if (text.length === 0) return [''];
  const size = Math.ceil(text.length / parts);
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

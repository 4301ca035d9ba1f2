/**
 * Replaces every occurrence of the values with `placeholder`. All matches are found in the original text first
 * and overlapping or touching matches merge into one placeholder, so a value containing another is hidden whole,
 * two overlapping values leave no tail behind, and the placeholder itself is never matched by a later value.
 */
export function maskValues(text: string, values: Iterable<string>, placeholder: string): string {
  const spans: Array<[number, number]> = [];
  for (const value of values) {
    if (value === '') continue;
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
      spans.push([at, at + value.length]);
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let masked = '';
  let cursor = 0;
  let [start, end] = spans[0] as [number, number];
  for (const [spanStart, spanEnd] of spans) {
    if (spanStart <= end) {
      end = Math.max(end, spanEnd);
      continue;
    }
    masked += text.slice(cursor, start) + placeholder;
    cursor = end;
    [start, end] = [spanStart, spanEnd];
  }
  return masked + text.slice(cursor, start) + placeholder + text.slice(end);
}

/**
 * Orders strings by Unicode code point, which is also UTF-8 byte order (the order S3 lists keys in).
 * JavaScript's default sort compares UTF-16 code units, which puts U+E000–U+FFFF after astral
 * characters; every backend sorts with this so listings agree.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

// Moves surrogates (0xD800–0xDFFF, the start of astral characters) above the rest of the BMP.
function rank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

const surrogate = /[\uD800-\uDFFF]/;

/**
 * Sorts in place by code point. Without surrogates (astral characters) code-unit order is code-point
 * order, so the engine's native sort is used; it is several times faster than a comparator on the
 * 100,000-name listings of long event logs.
 */
export function sortByCodePoint(values: string[]): string[] {
  for (const value of values) if (surrogate.test(value)) return values.sort(compareCodePoints);
  return values.sort();
}

import * as zlib from 'node:zlib';

export type Crc32 = (data: Uint8Array | string, value?: number) => number;

/**
 * `zlib.crc32`, which exists from Node 20.15 / 22.2 only. Read off the namespace, never imported by name: a named
 * import of a missing built-in export fails the whole module graph at load time, on every Node this package
 * supports (>= 20). Packs and the segment layout need it; without it they are unavailable (see their checks).
 */
export const nodeCrc32: Crc32 | undefined = (zlib as unknown as { crc32?: Crc32 }).crc32;

/** `zlib.crc32` where the caller already checked `nodeCrc32` exists (the segment layout refuses to open without). */
export function crc32(data: Uint8Array | string): number {
  return nodeCrc32!(data);
}

/** The CRC-32 (IEEE, as zlib's) step for each byte value: for checksums of every prefix in one pass. */
const TABLE = Int32Array.from({ length: 256 }, (_, value) => {
  let crc = value;
  for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  return crc;
});

/**
 * The first `end` in `(start, limit]` where the CRC-32 of `data[start, end)` is `expected`, or undefined: one pass
 * over the bytes (a checksum per candidate end would be quadratic), for a payload whose length is not known.
 */
export function firstEndWithCrc32(
  data: Uint8Array,
  range: { readonly start: number; readonly limit: number },
  expected: number,
): number | undefined {
  let crc = ~0;
  for (let at = range.start; at < range.limit; at++) {
    crc = TABLE[(crc ^ data[at]!) & 0xff]! ^ (crc >>> 8);
    if (~crc >>> 0 === expected) return at + 1;
  }
  return undefined;
}

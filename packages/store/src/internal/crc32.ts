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

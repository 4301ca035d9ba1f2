const encoder = new TextEncoder();

/**
 * Bytes this package made and never writes to again (see `handOver`). A class of its own, private to the package,
 * so the check is an `instanceof`: a WeakSet of every claim a memory store holds slowed each garbage collection.
 * Its copies (`slice`, `subarray`) are plain Uint8Arrays: a copy handed to a caller is the caller's to change.
 */
class HandedOverBytes extends Uint8Array {
  static get [Symbol.species](): Uint8ArrayConstructor {
    return Uint8Array;
  }
}

/**
 * A view of `bytes[start, end)` (made by this package, e.g. an event log's claim) marked as never written to again,
 * so the memory store keeps it as it is instead of copying it: a claim and its event file (a view of the claim's
 * last bytes) are then one copy of the event's bytes. Arrays from callers outside the package are always copied.
 */
export function handOver(bytes: Uint8Array, start = 0, end = bytes.length): Uint8Array {
  return new HandedOverBytes(bytes.buffer as ArrayBuffer, bytes.byteOffset + start, end - start);
}

/** UTF-8 bytes of `data`; a Uint8Array is copied so the caller may reuse its buffer afterwards (unless handed over). */
export function toOwnedBytes(data: string | Uint8Array): Uint8Array {
  if (typeof data === 'string') return encoder.encode(data);
  return data instanceof HandedOverBytes ? data : data.slice();
}

const encoder = new TextEncoder();

/** Bytes this package made and will never change again (see `handOver`). */
const handedOver = new WeakSet<Uint8Array>();

/**
 * Marks `bytes` (made by this package, e.g. an event log's claim) as never written to again, so the memory store
 * keeps them as they are instead of copying them: a claim and its event file (a view of the claim's last bytes)
 * are then one copy of the event's bytes. Callers outside the package never get here: their arrays are copied.
 */
export function handOver<T extends Uint8Array>(bytes: T): T {
  handedOver.add(bytes);
  return bytes;
}

/** UTF-8 bytes of `data`; a Uint8Array is copied so the caller may reuse its buffer afterwards (unless handed over). */
export function toOwnedBytes(data: string | Uint8Array): Uint8Array {
  if (typeof data === 'string') return encoder.encode(data);
  return handedOver.has(data) ? data : data.slice();
}

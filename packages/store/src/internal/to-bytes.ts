const encoder = new TextEncoder();

/** UTF-8 bytes of `data`; a Uint8Array is copied so the caller may reuse its buffer afterwards. */
export function toOwnedBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === 'string' ? encoder.encode(data) : data.slice();
}

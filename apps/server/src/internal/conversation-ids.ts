const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = /^[0-9a-f]{32}$/i;

/** `UUID | 32 hex` → 32 lowercase hex; anything else (`../x`, `%2F`, ...) → undefined, before storage. */
export function conversationHex(id: string): string | undefined {
  if (HEX.test(id)) return id.toLowerCase();
  if (UUID.test(id)) return id.replace(/-/g, '').toLowerCase();
  return undefined;
}

/** 32 hex → hyphenated UUID. */
export function hyphenate(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

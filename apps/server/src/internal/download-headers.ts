/**
 * The headers that make a response a download saved under `name`, whatever its bytes: a workspace file or an artifact
 * holds what the agent wrote, and an HTML or SVG one served inline on this origin would run script beside the viewer.
 * Never sniffed, never a document (a sandbox that loads nothing). The name goes in `filename*` (RFC 6266) with every
 * character outside RFC 5987's attr-char percent-encoded: `encodeURIComponent` leaves `'`, `(`, `)` and `*`, which
 * end or break the value for a strict reader, and a plain `filename="..."` is not percent-decoded by every browser.
 */
export function downloadHeaders(name: string): Record<string, string> {
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return {
    'content-disposition': `attachment; filename*=UTF-8''${encoded}`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
  };
}

import { createHash, createPublicKey, type KeyObject, sign } from 'node:crypto';

/** One entry of the card's `signatures` (A2A v1.0 `AgentCardSignature`): a JWS in flattened JSON form, no payload. */
export interface AgentCardSignature {
  /** base64url of the protected header `{"alg":"EdDSA","kid":…,"typ":"JOSE"}`. */
  protected: string;
  /** base64url of the Ed25519 signature over `<protected>.<base64url(canonical card)>`. */
  signature: string;
}

/**
 * What A2A signs (spec §8.4.1, as `@a2a-js/sdk`'s `canonicalizeAgentCard`): the card without `signatures`, with
 * empty strings, nulls, empty lists and empty objects left out (protobuf JSON's defaults), serialized with JCS
 * (RFC 8785: keys sorted, no whitespace). The card must hold only fields of the v1.0 schema, which ours does.
 */
export function canonicalAgentCard(card: Record<string, unknown>): string {
  const { signatures: _signatures, ...unsigned } = card;
  return jcs(withoutEmpty(unsigned) ?? {});
}

function withoutEmpty(value: unknown): unknown {
  if (value === '' || value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const items = value.map(withoutEmpty).filter((item) => item !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value)
      .map(([key, item]) => [key, withoutEmpty(item)] as const)
      .filter(([, item]) => item !== undefined);
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  }
  return value;
}

function jcs(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${jcs(record[key])}`)
    .join(',')}}`;
}

/** The key id of an Ed25519 key: its RFC 7638 JWK thumbprint (SHA-256, base64url), the same for either half. */
export function ed25519KeyId(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  const { crv, kty, x } = publicKey.export({ format: 'jwk' });
  return createHash('sha256').update(JSON.stringify({ crv, kty, x })).digest('base64url');
}

/**
 * The card with its signature added (JWS `EdDSA`, key id the key's thumbprint), made with the Ed25519 private key
 * `x verify --sign` signs chain heads with. A verifier checks it with the public key (`openssl pkey -pubout`).
 */
export function signAgentCard(
  card: Record<string, unknown>,
  privateKey: KeyObject,
): Record<string, unknown> & { signatures: AgentCardSignature[] } {
  const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: ed25519KeyId(privateKey), typ: 'JOSE' })).toString(
    'base64url',
  );
  const payload = Buffer.from(canonicalAgentCard(card)).toString('base64url');
  const signature = sign(null, Buffer.from(`${header}.${payload}`), privateKey).toString('base64url');
  const existing = Array.isArray(card.signatures) ? (card.signatures as AgentCardSignature[]) : [];
  return { ...card, signatures: [...existing, { protected: header, signature }] };
}

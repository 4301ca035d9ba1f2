import type { KeyObject } from 'node:crypto';

/** How each asymmetric key type Node names is written (its algorithm's own spelling). */
const ALGORITHM_NAMES: Readonly<Record<string, string>> = {
  rsa: 'RSA',
  'rsa-pss': 'RSA-PSS',
  dsa: 'DSA',
  dh: 'DH',
  ec: 'EC',
  ed25519: 'Ed25519',
  ed448: 'Ed448',
  x25519: 'X25519',
  x448: 'X448',
};

/**
 * Letters whose name starts with a vowel sound, the first letter of every algorithm name here being read as one
 * (an RSA key, an Ed25519 key, an ML-DSA key, but a DSA key).
 */
const AN_LETTERS = new Set('AEFHILMNORSX');

/**
 * What `key` is, with its article, for messages that refuse it: `an Ed25519 public key`, `an RSA private key`,
 * `a DSA private key`, `a secret (symmetric) key`.
 */
export function describeKey(key: KeyObject): string {
  if (key.asymmetricKeyType === undefined) return `a ${key.type} (symmetric) key`;
  const name = ALGORITHM_NAMES[key.asymmetricKeyType] ?? key.asymmetricKeyType.toUpperCase();
  return `${AN_LETTERS.has(name[0]!) ? 'an' : 'a'} ${name} ${key.type} key`;
}

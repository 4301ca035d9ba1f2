import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { UsageError } from './errors/usage-error.js';

/** Reads an Ed25519 key in PEM form (`--signing-key`, `--sign`, `--public-key`); a usage error naming the file otherwise. */
export function loadEd25519Key(path: string, type: 'public' | 'private'): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the ${type} key file ${path}: ${(error as Error).message}`);
  }
  try {
    const key = type === 'public' ? createPublicKey(pem) : createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`a ${key.asymmetricKeyType} key, not Ed25519`);
    return key;
  } catch (error) {
    throw new UsageError(`${path} is not an Ed25519 ${type} key in PEM form: ${(error as Error).message}`, {
      hint: 'make one with: openssl genpkey -algorithm ed25519 -out key.pem && openssl pkey -in key.pem -pubout -out key.pub',
    });
  }
}

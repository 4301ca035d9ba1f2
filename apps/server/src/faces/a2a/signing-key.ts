import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { SigningKeyError } from './signing-key-error.js';

/**
 * Reads the Ed25519 private key (PEM) that signs the agent card: the same file `x verify --sign` takes
 * (`openssl genpkey -algorithm ed25519 -out key.pem`). Throws `SigningKeyError` naming the file and what is wrong.
 */
export async function loadSigningKey(path: string): Promise<KeyObject> {
  let pem: string;
  try {
    pem = await readFile(path, 'utf8');
  } catch (error) {
    throw new SigningKeyError(path, (error as Error).message, { cause: error });
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new SigningKeyError(path, `not a private key in PEM form (${(error as Error).message})`, { cause: error });
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new SigningKeyError(path, `a ${key.asymmetricKeyType} key, not Ed25519`);
  }
  return key;
}

import type { KeyObject } from 'node:crypto';
import { ChainTamperedError } from '../errors/chain-tampered-error.js';
import { logDirectory } from '../event-log/log-directory.js';
import type { FileStore } from '../file-store.js';
import { type SignedHead, signedHeadPath, signHead } from './signed-head.js';
import { verifyEventChain } from './verify-chain.js';

/** Options for `signChainHead`. */
export interface SignChainHeadOptions {
  /** Directory of the event files inside the store. Default `'events'`. */
  dir?: string;
  /** The user's Ed25519 private key (`crypto.generateKeyPairSync('ed25519')`, or `createPrivateKey(pem)`). */
  privateKey: KeyObject;
}

/**
 * Verifies the log's chain and signs its head (length and last link hash) with an Ed25519 key the user
 * holds, in `<dir>/.chain/signed-head.json`. A later `verifyEventChain(store, { publicKey })` then also
 * detects truncation and a rewritten chain. Throws `ChainTamperedError` when the chain does not verify
 * and nothing is signed when no event is chained (the head is undefined then).
 */
export async function signChainHead(store: FileStore, options: SignChainHeadOptions): Promise<SignedHead | undefined> {
  const dir = logDirectory(options.dir);
  const report = await verifyEventChain(store, { dir });
  if (report.problem) throw new ChainTamperedError(report.problem);
  if (report.headHash === null) return undefined;
  const head = signHead(report.length, report.headHash, options.privateKey);
  await store.write(signedHeadPath(dir), `${JSON.stringify(head)}\n`);
  return head;
}

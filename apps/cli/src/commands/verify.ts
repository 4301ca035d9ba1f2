import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type ChainReport, createLocalFileStore, signChainHead, verifyEventChain } from '@x/store';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../errors.js';
import { resolveConversation } from '../resolve-conversation.js';

export interface VerifyOptions {
  json?: boolean;
  dataDir?: string;
  publicKey?: string;
  sign?: string;
}

/**
 * `x verify [conversation]`: checks the conversation's tamper-evident event chain (and, with
 * --public-key, its signed head) and names the first altered, removed, reordered or inserted event.
 * Reads only; with --sign it then writes the signed head (events/.chain/signed-head.json).
 */
export async function verifyCommand(
  context: CliContext,
  input: string | undefined,
  options: VerifyOptions,
): Promise<number> {
  const source = resolveConversation(input ?? '.', { dataDir: options.dataDir });
  const publicKey = options.publicKey === undefined ? undefined : loadKey(options.publicKey, 'public');
  const privateKey = options.sign === undefined ? undefined : loadKey(options.sign, 'private');
  const store = createLocalFileStore({ root: source.parentDir, durability: 'fsync' });
  const dir = `${source.name}/events`;
  const report = await verifyEventChain(store, { dir, publicKey });
  let signed: number | undefined;
  if (privateKey !== undefined && report.status === 'verified') {
    signed = (await signChainHead(store, { dir, privateKey }))?.length;
  }
  const { output } = context;
  if (options.json === true) {
    output.line(JSON.stringify({ location: source.location, ...report, ...(signed === undefined ? {} : { signed }) }));
  } else {
    render(context, source.location, report);
    if (signed !== undefined) output.line(`signed the head: ${signed} events`);
  }
  return report.status === 'tampered' ? ExitCode.tampered : ExitCode.ok;
}

function render(context: CliContext, location: string, report: ChainReport): void {
  const { output } = context;
  const c = output.colors;
  output.line(`${c.bold('Conversation')} ${location}`);
  if (report.status === 'tampered' && report.problem) {
    const { kind, index, id, message } = report.problem;
    output.line(`${c.red('TAMPERED')} ${kind} at index ${index}${id ? ` (id ${id})` : ''}: ${message}`);
    return;
  }
  if (report.status === 'unchained') {
    output.line(
      `${c.yellow('unchained')}: ${report.length} events, none chained (written before chaining, or by the reference)`,
    );
    return;
  }
  const unchained = report.chainedFrom ?? 0;
  output.line(
    `${c.green('verified')}: ${report.length} events, chained from index ${unchained}` +
      (unchained > 0 ? ` (events 0–${unchained - 1} unchained)` : ''),
  );
  if (report.signature === 'valid')
    output.line(`signature valid: the signed head covers ${report.signedLength} events`);
}

function loadKey(path: string, type: 'public' | 'private'): KeyObject {
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

import type { KeyObject } from 'node:crypto';
import {
  type ChainReport,
  createLocalFileStore,
  EventLog,
  type SignatureReport,
  type SignatureRequirement,
  signChainHead,
  verifyEventChain,
  verifyEventSignatures,
} from '@x/store';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../errors.js';
import { loadEd25519Key } from '../load-ed25519-key.js';
import { resolveConversation } from '../resolve-conversation.js';
import { renderSignatureReport } from './verify-signatures.js';

export interface VerifyOptions {
  json?: boolean;
  dataDir?: string;
  publicKey?: string;
  sign?: string;
  databaseUrl?: string;
  /** Which events must be signed (commander gives the default, `after-first-signed`). */
  requireSignatures?: SignatureRequirement;
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
  const publicKey = options.publicKey === undefined ? undefined : loadEd25519Key(options.publicKey, 'public');
  const privateKey = options.sign === undefined ? undefined : loadEd25519Key(options.sign, 'private');
  const databaseUrl = options.databaseUrl ?? context.env.X_SERVER_DATABASE_URL;
  const checked =
    databaseUrl === undefined || databaseUrl === ''
      ? await verifyFiles(input, options, publicKey, privateKey)
      : await verifyInDatabase(databaseUrl, input, options, { publicKey, privateKey });
  const { location, report, signed, signatures } = checked;
  const { output } = context;
  if (options.json === true) {
    output.line(JSON.stringify({ location, ...report, ...(signed === undefined ? {} : { signed }), signatures }));
  } else {
    render(context, location, report);
    renderSignatureReport(context, signatures);
    if (signed !== undefined) output.line(`signed the head: ${signed} events`);
  }
  // An event the requirement says must be signed but is not may be a deleted signature record: it fails as tampering.
  const signaturesFail = signatures.status === 'invalid' || signatures.status === 'incomplete';
  return report.status === 'tampered' || signaturesFail ? ExitCode.tampered : ExitCode.ok;
}

interface Checked {
  location: string;
  report: ChainReport;
  signed: number | undefined;
  /** The per-event signatures (events/.chain/signatures/), checked beside the chain. */
  signatures: SignatureReport;
}

async function verifyFiles(
  input: string | undefined,
  options: VerifyOptions,
  publicKey: KeyObject | undefined,
  privateKey: KeyObject | undefined,
): Promise<Checked> {
  const source = resolveConversation(input ?? '.', { dataDir: options.dataDir });
  const store = createLocalFileStore({ root: source.parentDir, durability: 'fsync' });
  const dir = `${source.name}/events`;
  const report = await verifyEventChain(store, { dir, publicKey });
  // A reader: it neither writes a name index nor rolls unfinished event files forward.
  const log = await EventLog.open(store, { dir, nameIndex: { write: false }, rollForward: false });
  const signatures = await verifyEventSignatures(log, { store, dir }, requirement(options));
  let signed: number | undefined;
  if (privateKey !== undefined && report.status === 'verified') {
    signed = (await signChainHead(store, { dir, privateKey }))?.length;
  }
  return { location: source.location, report, signed, signatures };
}

/** A conversation kept in PostgreSQL by `x serve --database-url`: its rows carry the chain (migration 3). */
async function verifyInDatabase(
  url: string,
  input: string | undefined,
  options: VerifyOptions,
  keys: { publicKey: KeyObject | undefined; privateKey: KeyObject | undefined },
): Promise<Checked> {
  const { publicKey, privateKey } = keys;
  const id = input === undefined ? undefined : hyphenatedId(input);
  if (id === undefined) {
    throw new UsageError('with --database-url, give the conversation id (32 hex digits, or the hyphenated UUID)');
  }
  const { connectPostgres, createPostgresFileStore, PostgresEventLog } = await import('@x/store-postgres');
  const database = await connectPostgres({ url, maxConnections: 2 });
  try {
    const log = await PostgresEventLog.open(database, { logId: id });
    if (log.length === 0) throw new UsageError(`no conversation ${id} in ${database.location}`);
    const report = await log.verifyChain(publicKey === undefined ? {} : { publicKey });
    // The server keeps signature records in its files table, beside the conversation's other files.
    const signatures = await verifyEventSignatures(
      log,
      { store: createPostgresFileStore(database), dir: `${id.replace(/-/g, '')}/events` },
      requirement(options),
    );
    let signed: number | undefined;
    if (privateKey !== undefined && report.status === 'verified')
      signed = (await log.signChainHead(privateKey))?.length;
    return { location: `${database.location} (conversation ${id})`, report, signed, signatures };
  } finally {
    await database.close();
  }
}

function requirement(options: VerifyOptions): { require?: SignatureRequirement } {
  return options.requireSignatures === undefined ? {} : { require: options.requireSignatures };
}

function hyphenatedId(input: string): string | undefined {
  const hex = input.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function render(context: CliContext, location: string, report: ChainReport): void {
  const { output } = context;
  const c = output.colors;
  output.line(`${c.bold('Conversation')} ${location}`);
  if (report.status === 'tampered' && report.problem) {
    const { kind, index, id, message } = report.problem;
    const at = `at index ${index}${id ? ` (id ${id})` : ''}`;
    // A segment changed since it was written is named as damage (a flipped byte is no proof of tampering), and still
    // fails: the chain cannot vouch for the events it lost.
    if (kind === 'damaged') output.line(`${c.red('DAMAGED')} ${at}: ${message}`);
    else output.line(`${c.red('TAMPERED')} ${kind} ${at}: ${message}`);
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
  if (report.recordedLength !== undefined && report.recordedLength !== null) {
    output.line(`head recorded at the last close: ${report.recordedLength} events (unsigned)`);
  }
  if (report.signature === 'valid')
    output.line(`signature valid: the signed head covers ${report.signedLength} events`);
  const fromClaims = report.fromClaims ?? [];
  if (fromClaims.length > 0) {
    output.line(
      `${fromClaims.length} event file(s) not written yet or left unfinished (index ${fromClaims.join(', ')}): ` +
        'checked from their slot claims; the next open or read of the log writes them',
    );
  }
}

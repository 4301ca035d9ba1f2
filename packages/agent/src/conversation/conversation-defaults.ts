import { createLocalFileStore, EventLog, type EventLogLike, type FileStore } from '@x/store';
import { SecretRegistry } from '../secrets/secret-registry.js';
import type { ConversationOptions } from './conversation-options.js';
import { repairLogGap } from './log-gap.js';
import { defaultPersistenceDir, hyphenateConversationId } from './persistence-layout.js';
import { type SigningControl, withSigning } from './signing-log.js';

/** The store a conversation lives in: the one given, else a local store at the persistence directory. */
export function storeFor(options: Pick<ConversationOptions, 'store' | 'persistenceDir' | 'durability'>): FileStore {
  return (
    options.store ??
    createLocalFileStore({
      root: options.persistenceDir ?? defaultPersistenceDir(),
      durability: options.durability ?? 'fsync',
    })
  );
}

/** Opens the conversation's event log: `options.openEventLog`, else event files in the store. */
export async function openConversationLog(
  options: Pick<ConversationOptions, 'openEventLog'> &
    Partial<Pick<ConversationOptions, 'agent' | 'signingKey' | 'approverSigningKey' | 'repairLogGap'>>,
  location: { conversationId: string; store: FileStore; dir: string },
  signing?: SigningControl,
): Promise<EventLogLike> {
  // One log id per conversation whichever spelling (hex or hyphenated) opened it.
  const normalized = { ...location, conversationId: hyphenateConversationId(location.conversationId) };
  const log =
    options.openEventLog !== undefined
      ? await options.openEventLog(normalized)
      : await EventLog.open(location.store, { dir: location.dir });
  // Before the signing wrapper, which does not pass the gap on.
  if (options.repairLogGap === true) await repairLogGap(normalized.conversationId, log);
  return withSigning(log, options, location, signing);
}

/** The secrets given as a registry or as a plain record of names to values. */
export function toRegistry(secrets: ConversationOptions['secrets']): SecretRegistry {
  if (secrets instanceof SecretRegistry) return secrets;
  return new SecretRegistry(secrets ?? {});
}

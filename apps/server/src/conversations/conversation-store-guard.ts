import type { FileStore, WritePairOptions as FileStoreWritePairOptions } from '@x/store';
import { ConversationDeletedError } from './errors/conversation-deleted-error.js';

/** A conversation's view of the store, and the switch that cuts it off when the conversation is deleted. */
export interface GuardedConversationStore {
  /** Delegates to the real store until `revoke()`; afterwards every call throws `ConversationDeletedError`. */
  readonly store: FileStore;
  /** Refuses every later call and resolves once the calls already under way have settled. */
  revoke(): Promise<void>;
  readonly revoked: boolean;
}

/**
 * Wraps the store one conversation (one ManagedConversation and its Conversation) uses, so that a delete is
 * final: once revoked, no write from a request or a run still under way can recreate a file of the deleted
 * conversation, and the delete waits for the writes already started before it removes the directory.
 * Every method (present or added to FileStore later) is guarded; only `describe` (no I/O) passes through.
 */
export function guardConversationStore(base: FileStore, conversationId: string): GuardedConversationStore {
  let revoked = false;
  const inFlight = new Set<Promise<unknown>>();
  const store = new Proxy(base, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || property === 'describe') {
        return typeof value === 'function' ? value.bind(target) : value;
      }
      const track = (work: Promise<unknown>) => {
        inFlight.add(work);
        const forget = () => inFlight.delete(work);
        work.then(forget, forget);
      };
      return (...args: unknown[]) => {
        if (revoked) return Promise.reject(new ConversationDeletedError(conversationId));
        const optionsAt = WRITE_PAIR_OPTIONS_AT.get(property);
        if (optionsAt !== undefined) args = withDeferredWorkTracked(args, optionsAt, track);
        const call = Promise.resolve().then(() => (value as (...a: unknown[]) => unknown).apply(target, args));
        track(call);
        return call;
      };
    },
  });
  return {
    store,
    get revoked() {
      return revoked;
    },
    async revoke() {
      revoked = true;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/** Where the store calls that take `WritePairOptions` have them in their arguments. */
const WRITE_PAIR_OPTIONS_AT: ReadonlyMap<string | symbol, number> = new Map([
  ['writeIfAbsentThenWrite', 3],
  ['writeIfAbsentThenWriteMany', 2],
  ['writeIfAbsentThenLinkMany', 2],
]);

/**
 * A write-pair call's arguments with `options.deferThen` wrapped so that the write it hands over (the rest
 * of the event file, which runs on after the call resolves: S3's PutObject) is in flight too, and a delete
 * waits for it instead of letting it recreate a file of the deleted conversation.
 */
function withDeferredWorkTracked(
  args: unknown[],
  optionsAt: number,
  track: (work: Promise<unknown>) => void,
): unknown[] {
  const options = args[optionsAt] as FileStoreWritePairOptions | undefined;
  const deferThen = options?.deferThen;
  if (deferThen === undefined) return args;
  const wrapped: FileStoreWritePairOptions = {
    ...options,
    deferThen: (rest) => {
      track(rest);
      deferThen(rest);
    },
  };
  return [...args.slice(0, optionsAt), wrapped, ...args.slice(optionsAt + 1)];
}

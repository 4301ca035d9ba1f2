import type { FastifyBaseLogger } from 'fastify';
import type { ManagedConversation } from './managed-conversation.js';

const DEFAULT_IDLE_RELEASE_MS = 120_000;
const DEFAULT_MAX_OPEN_CONVERSATIONS = 256;

/** The manager's idle-release settings (see `ConversationManagerOptions`). */
export interface IdleSweepOptions {
  idleReleaseMs?: number | undefined;
  maxOpenConversations?: number | undefined;
  now?: (() => number) | undefined;
}

/**
 * Sweeps for idle conversations every so often (unless idle release is off or the clock is injected: tests sweep
 * themselves); a sweep still going when the next is due is not doubled. Undefined when no sweep is scheduled.
 */
export function startIdleSweep(options: IdleSweepOptions, sweep: () => Promise<unknown>): NodeJS.Timeout | undefined {
  const idleMs = options.idleReleaseMs ?? DEFAULT_IDLE_RELEASE_MS;
  if (idleMs <= 0 || options.now !== undefined) return undefined;
  let sweeping = false;
  const timer = setInterval(
    () => {
      if (sweeping) return;
      sweeping = true;
      void sweep().finally(() => {
        sweeping = false;
      });
    },
    Math.max(1_000, Math.min(idleMs / 2, 30_000)),
  );
  timer.unref();
  return timer;
}

/**
 * Releases the open conversations not used for `idleReleaseMs`, then, while more than `maxOpenConversations`
 * are open, the least recently used of the rest (unused for a tenth of that at least). Conversations in use
 * (running, watched by an event socket, being opened) are never released. Returns those released.
 */
export async function releaseIdleConversations(
  conversations: Iterable<ManagedConversation | undefined>,
  options: IdleSweepOptions & { logger: FastifyBaseLogger },
): Promise<ManagedConversation[]> {
  const idleMs = options.idleReleaseMs ?? DEFAULT_IDLE_RELEASE_MS;
  const maxOpen = options.maxOpenConversations ?? DEFAULT_MAX_OPEN_CONVERSATIONS;
  const now = (options.now ?? Date.now)();
  const open = [...conversations]
    .filter((conversation): conversation is ManagedConversation => conversation?.isOpen === true)
    .sort((a, b) => a.lastUsed - b.lastUsed);
  let stillOpen = open.length;
  const released: ManagedConversation[] = [];
  for (const conversation of open) {
    const unused = now - conversation.lastUsed;
    const due = idleMs > 0 && unused >= idleMs;
    const overLimit = stillOpen > maxOpen && unused >= idleMs / 10;
    if (!(due || overLimit) || !conversation.isReleasable) continue;
    try {
      if (await conversation.release()) {
        released.push(conversation);
        stillOpen -= 1;
      }
    } catch (error) {
      options.logger.warn(
        { conversationId: conversation.id, err: error },
        'an idle conversation could not be released',
      );
    }
  }
  return released;
}

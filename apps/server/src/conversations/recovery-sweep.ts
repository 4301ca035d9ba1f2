import type { Leases } from '@x/store';
import type { FastifyBaseLogger } from 'fastify';
import { conversationHex } from '../internal/conversation-ids.js';
import type { ConversationManager } from './conversation-manager.js';

export interface RecoverySweepOptions {
  manager: Pick<ConversationManager, 'get'>;
  /** Keys of the run leases whose owner stopped renewing without releasing them (a SQL query on PostgreSQL). */
  expiredLeases(): Promise<string[]>;
  /** The run leases, to settle an expired lease whose conversation is not running (nothing to resume). */
  leases: Leases;
  /** Mean time between two sweeps, in ms; each wait is jittered ±25% so replicas do not sweep in step. */
  intervalMs: number;
  logger: FastifyBaseLogger;
}

export interface RecoverySweep {
  /** Looks once; resolves with the number of runs this replica started resuming (another replica may win one). */
  sweep(): Promise<number>;
  /** Stops the timer and waits for a sweep under way. */
  stop(): Promise<void>;
}

/**
 * Resumes, without waiting for a request, the runs whose owner died (SIGKILL, machine lost): their lease
 * expired without being released. The first replica to take such a lease resumes the run; the run's
 * `interruptedActions` decides what becomes of the action that was in flight. An expired lease of a
 * conversation that is not running (the owner died between runs) is taken and released, so that it is
 * not looked at again.
 */
export function startRecoverySweep(options: RecoverySweepOptions): RecoverySweep {
  const { logger } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<number> | undefined;

  const recover = async (key: string): Promise<boolean> => {
    const hex = conversationHex(key);
    if (hex === undefined) return false;
    // Settled: taken and released, so the lease is not listed again (a conversation deleted meanwhile, or
    // one whose owner died between runs: nothing to resume).
    const settle = async (): Promise<false> => {
      const lease = await options.leases.acquire(key).catch(() => undefined);
      await lease?.release();
      return false;
    };
    const managed = await options.manager.get(hex);
    if (managed === undefined) return settle();
    if (managed.isRunning) return false;
    const conversation = await managed.open();
    if (conversation.isRunning) return false;
    if (conversation.state.execution_status !== 'running') return settle();
    logger.warn({ conversationId: managed.id }, 'recovering a run whose owner stopped renewing its lease');
    // Not awaited: a resumed run records no new `running` status, so startRun would settle only when the run
    // ends, and one long run must not hold up the recovery of the others.
    managed.startRun().catch((error: unknown) => {
      // Another replica's sweep (or a request) took it first: that one resumes the run.
      if ((error as { code?: unknown }).code === 'conversation_running' || managed.isRunning) return;
      logger.error({ conversationId: managed.id, err: error }, 'recovery of an expired run failed');
    });
    return true;
  };

  // A conversation that cannot be recovered (damaged files) stays expired and is met on every sweep: its
  // failure is logged as an error once per distinct message, then at debug level, so logs do not fill up.
  const reported = new Map<string, string>();
  const sweep = async (): Promise<number> => {
    let resumed = 0;
    for (const key of await options.expiredLeases()) {
      if (stopped) break;
      try {
        if (await recover(key)) resumed++;
        reported.delete(key);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const repeated = reported.get(key) === message;
        reported.set(key, message);
        if (repeated) logger.debug({ leaseKey: key, err: error }, 'recovery of an expired run failed again');
        else logger.error({ leaseKey: key, err: error }, 'recovery of an expired run failed');
      }
    }
    return resumed;
  };

  const schedule = (): void => {
    if (stopped) return;
    const wait = Math.max(1, Math.round(options.intervalMs * (0.75 + Math.random() * 0.5)));
    timer = setTimeout(() => {
      current = sweep()
        .catch((error: unknown) => {
          logger.error({ err: error }, 'recovery sweep failed');
          return 0;
        })
        .finally(() => {
          current = undefined;
          schedule();
        });
    }, wait);
    timer.unref();
  };
  schedule();

  return {
    sweep: () => {
      current ??= sweep().finally(() => {
        current = undefined;
      });
      return current;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current?.catch(() => undefined);
    },
  };
}

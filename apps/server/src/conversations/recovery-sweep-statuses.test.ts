import { createFileStoreLeases, createMemoryFileStore, type FileStore } from '@x/store';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationManager } from './conversation-manager.js';
import { type RecoverySweep, startRecoverySweep } from './recovery-sweep.js';

// Which expired leases the sweep resumes: only a conversation persisted as `running` whose run is not here. A
// paused or confirmation-waiting one must not be run (a new run would execute the held actions, confirming them
// on the user's behalf); its lease, like a deleted conversation's, is settled (taken and released).

const silent = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  trace: () => undefined,
  fatal: () => undefined,
} as unknown as FastifyBaseLogger;

interface FakeConversation {
  status: string;
  managedRunning?: boolean;
  openRunning?: boolean;
}

const keyOf = (index: number) => index.toString(16).padStart(32, '0');

let sweeper: RecoverySweep | undefined;
afterEach(async () => {
  await sweeper?.stop();
  sweeper = undefined;
});

/** A sweep over one expired lease per entry (undefined: the conversation was deleted). */
function sweepOver(conversations: Array<FakeConversation | undefined>) {
  const store: FileStore = createMemoryFileStore();
  const started: string[] = [];
  const opened: string[] = [];
  const keys = conversations.map((_, index) => keyOf(index + 1));
  const manager: Pick<ConversationManager, 'get'> = {
    get: async (hex: string) => {
      const fake = conversations[keys.indexOf(hex)];
      if (fake === undefined) return undefined;
      return {
        id: hex,
        isRunning: fake.managedRunning ?? false,
        open: async () => {
          opened.push(hex);
          return { isRunning: fake.openRunning ?? false, state: { execution_status: fake.status } };
        },
        startRun: async () => {
          started.push(hex);
        },
      } as unknown as Awaited<ReturnType<ConversationManager['get']>>;
    },
  };
  sweeper = startRecoverySweep({
    manager,
    expiredLeases: async () => ['not-a-conversation', ...keys],
    leases: createFileStoreLeases(store),
    intervalMs: 3_600_000,
    logger: silent,
  });
  const settled = async (hex: string) => store.exists(`.leases/${hex}/released-0000000001.json`);
  const taken = async (hex: string) => store.exists(`.leases/${hex}/gen-0000000001.json`);
  return { sweeper, keys, started, opened, settled, taken };
}

describe('the recovery sweep, by the state of the conversation', () => {
  it('resumes a conversation persisted as running, and leaves its lease to the run', async () => {
    const { sweeper, keys, started, settled } = sweepOver([{ status: 'running' }]);
    expect(await sweeper.sweep()).toBe(1);
    expect(started).toEqual([keys[0]]);
    expect(await settled(keys[0]!)).toBe(false);
  });

  it.each(['paused', 'waiting_for_confirmation', 'finished', 'idle', 'error', 'stuck'])(
    'never runs a conversation that is %s, and settles its lease',
    async (status) => {
      const { sweeper, keys, started, settled } = sweepOver([{ status }]);
      expect(await sweeper.sweep()).toBe(0);
      expect(started).toEqual([]);
      expect(await settled(keys[0]!)).toBe(true);
    },
  );

  it('settles the lease of a deleted conversation', async () => {
    const { sweeper, keys, started, settled } = sweepOver([undefined, { status: 'running' }]);
    expect(await sweeper.sweep()).toBe(1);
    expect(started).toEqual([keys[1]]);
    expect(await settled(keys[0]!)).toBe(true);
  });

  it('leaves alone a conversation whose run is already here, and its lease', async () => {
    const { sweeper, keys, started, opened, taken } = sweepOver([
      { status: 'running', managedRunning: true },
      { status: 'running', openRunning: true },
    ]);
    expect(await sweeper.sweep()).toBe(0);
    expect(started).toEqual([]);
    expect(opened).toEqual([keys[1]]);
    expect(await taken(keys[0]!)).toBe(false);
    expect(await taken(keys[1]!)).toBe(false);
  });
});

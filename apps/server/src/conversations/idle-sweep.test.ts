import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { releaseIdleConversations, startIdleSweep } from './idle-sweep.js';
import type { ManagedConversation } from './managed-conversation.js';

/** The part of a ManagedConversation the sweep reads, with the releases it was asked for. */
interface FakeConversation {
  id: string;
  isOpen: boolean;
  lastUsed: number;
  isReleasable: boolean;
  release: () => Promise<boolean>;
}

function fake(id: string, lastUsed: number, overrides: Partial<FakeConversation> = {}): FakeConversation {
  const conversation: FakeConversation = {
    id,
    isOpen: true,
    lastUsed,
    isReleasable: true,
    release: async () => {
      conversation.isOpen = false;
      return true;
    },
    ...overrides,
  };
  return conversation;
}

const warnings: unknown[] = [];
const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as FastifyBaseLogger;

async function sweep(
  conversations: (FakeConversation | undefined)[],
  options: { idleReleaseMs?: number; maxOpenConversations?: number; now: number },
): Promise<{ released: number; open: string[] }> {
  const released = await releaseIdleConversations(conversations as (ManagedConversation | undefined)[], {
    ...options,
    now: () => options.now,
    logger,
  });
  const open = conversations.filter((c): c is FakeConversation => c?.isOpen === true).map((c) => c.id);
  return { released: released.length, open };
}

afterEach(() => {
  warnings.length = 0;
  vi.useRealTimers();
});

describe('releaseIdleConversations', () => {
  it('releases the conversations unused for idleReleaseMs or longer, and only those', async () => {
    const now = 1_000_000;
    const conversations = [fake('a', now - 1000), fake('b', now - 999), undefined, fake('c', now - 5000)];
    expect(await sweep(conversations, { idleReleaseMs: 1000, now })).toEqual({ released: 2, open: ['b'] });
  });

  it('defaults to two minutes of idleness', async () => {
    const now = 1_000_000;
    const conversations = [fake('a', now - 120_000), fake('b', now - 119_999)];
    expect(await sweep(conversations, { now })).toEqual({ released: 1, open: ['b'] });
  });

  it('never releases one in use, a closed one, or one whose release declines; counts only real releases', async () => {
    const now = 1_000_000;
    const conversations = [
      fake('busy', 0, { isReleasable: false, release: async () => expect.fail('a busy one was released') }),
      fake('closed', 0, { isOpen: false, release: async () => expect.fail('a closed one was released') }),
      fake('declines', 0, { release: async () => false }),
      fake('idle', 0),
    ];
    expect(await sweep(conversations, { idleReleaseMs: 1000, now })).toEqual({
      released: 1,
      open: ['busy', 'declines'],
    });
  });

  it('over maxOpenConversations, releases the least recently used first, down to the limit', async () => {
    const now = 1_000_000;
    // Unused for 200..500 ms: not idle (1000), but at least a tenth of it (100).
    const conversations = [fake('c', now - 300), fake('a', now - 500), fake('d', now - 200), fake('b', now - 400)];
    expect(await sweep(conversations, { idleReleaseMs: 1000, maxOpenConversations: 2, now })).toEqual({
      released: 2,
      open: ['c', 'd'],
    });
  });

  it('over the limit, keeps the ones used within a tenth of idleReleaseMs', async () => {
    const now = 1_000_000;
    const conversations = [fake('a', now - 100), fake('b', now - 99), fake('c', now - 50)];
    expect(await sweep(conversations, { idleReleaseMs: 1000, maxOpenConversations: 1, now })).toEqual({
      released: 1,
      open: ['b', 'c'],
    });
  });

  it('over the limit, a conversation that stays open (busy, declined) still counts as open', async () => {
    const now = 1_000_000;
    const conversations = [
      fake('busy', now - 900, { isReleasable: false }),
      fake('declines', now - 800, { release: async () => false }),
      fake('a', now - 700),
      fake('b', now - 600),
    ];
    // Four open, limit two: the two oldest stay, so the next two go.
    expect(await sweep(conversations, { idleReleaseMs: 1000, maxOpenConversations: 2, now })).toEqual({
      released: 2,
      open: ['busy', 'declines'],
    });
    // At the limit exactly: nothing goes.
    const atLimit = [fake('a', now - 700), fake('b', now - 600)];
    expect(await sweep(atLimit, { idleReleaseMs: 1000, maxOpenConversations: 2, now })).toEqual({
      released: 0,
      open: ['a', 'b'],
    });
  });

  it('with idle release off (0), releases only over the limit', async () => {
    const now = 1_000_000;
    const conversations = [fake('a', 0), fake('b', 1)];
    expect(await sweep(conversations, { idleReleaseMs: 0, now })).toEqual({ released: 0, open: ['a', 'b'] });
    expect(await sweep(conversations, { idleReleaseMs: 0, maxOpenConversations: 1, now })).toEqual({
      released: 1,
      open: ['b'],
    });
  });

  it('takes the smallest settings literally: 1 ms of idleness, at most 0 open', async () => {
    const now = 1_000_000;
    expect(await sweep([fake('a', now - 1), fake('b', now)], { idleReleaseMs: 1, now })).toEqual({
      released: 1,
      open: ['b'],
    });
    // No conversation may stay open: every one unused for a tenth of idleReleaseMs goes.
    expect(
      await sweep([fake('a', now - 100), fake('b', now - 99)], { idleReleaseMs: 1000, maxOpenConversations: 0, now }),
    ).toEqual({
      released: 1,
      open: ['b'],
    });
  });

  it('logs a release that fails and goes on with the others', async () => {
    const now = 1_000_000;
    const conversations = [
      fake('fails', 0, {
        release: async () => {
          throw new Error('close failed');
        },
      }),
      fake('idle', 1),
    ];
    expect(await sweep(conversations, { idleReleaseMs: 1000, now })).toEqual({ released: 1, open: ['fails'] });
    expect(warnings).toHaveLength(1);
  });
});

describe('startIdleSweep', () => {
  it('schedules nothing when idle release is off or the clock is injected', () => {
    const sweep = async () => undefined;
    expect(startIdleSweep({ idleReleaseMs: 0 }, sweep)).toBeUndefined();
    expect(startIdleSweep({ idleReleaseMs: -1 }, sweep)).toBeUndefined();
    expect(startIdleSweep({ now: () => 0 }, sweep)).toBeUndefined();
    // Any positive idle time sweeps (every second at least).
    const timer = startIdleSweep({ idleReleaseMs: 1 }, sweep);
    expect(timer).toBeDefined();
    clearInterval(timer);
  });

  it('sweeps every half of idleReleaseMs (between 1 and 30 s), never two sweeps at once', async () => {
    vi.useFakeTimers();
    const periods: number[] = [];
    for (const idleReleaseMs of [4_000, 600, 120_000, undefined]) {
      let sweeps = 0;
      let finish: () => void = () => undefined;
      const timer = startIdleSweep({ idleReleaseMs }, () => {
        sweeps += 1;
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      });
      expect(timer).toBeDefined();
      let elapsed = 0;
      while (sweeps === 0) {
        await vi.advanceTimersByTimeAsync(100);
        elapsed += 100;
      }
      periods.push(elapsed);
      // The sweep under way is not doubled by the next tick...
      await vi.advanceTimersByTimeAsync(elapsed);
      expect(sweeps).toBe(1);
      // ...and once it has finished, the next tick sweeps again.
      finish();
      await vi.advanceTimersByTimeAsync(elapsed);
      expect(sweeps).toBe(2);
      clearInterval(timer);
    }
    expect(periods).toEqual([2_000, 1_000, 30_000, 30_000]);
  });
});

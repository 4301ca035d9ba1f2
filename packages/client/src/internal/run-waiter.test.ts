// The run waiter's ordering rule, in-process: a terminal snapshot that reaches the socket after the run request was
// answered may still be the previous run's end (the request comes back on another connection). Against a real
// `x serve`, see test/run-waiter-mutants.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { RunWaiter } from './run-waiter.js';

const waiters: RunWaiter[] = [];

function armed(statusNow: unknown): { waiter: RunWaiter; settled: () => unknown } {
  const waiter = new RunWaiter({
    conversationId: 'c1',
    statusNow,
    lastError: () => undefined,
    poll: () => new Promise(() => undefined),
    pollIntervalMs: 600_000,
    timeoutMs: 600_000,
    snapshotGraceMs: 600_000,
  });
  waiters.push(waiter);
  let outcome: unknown = 'pending';
  waiter.result.then(
    (result) => {
      outcome = result;
    },
    (error: unknown) => {
      outcome = error;
    },
  );
  return { waiter, settled: () => outcome };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  for (const waiter of waiters.splice(0)) waiter.dispose();
});

describe('RunWaiter', () => {
  it('takes no terminal snapshot for the end of a run from paused until that run was seen running', async () => {
    const { waiter, settled } = armed('paused');
    waiter.started();
    // The previous run's end, published before this run started, arriving after the run request was answered.
    waiter.onSnapshot('paused');
    await tick();
    expect(settled()).toBe('pending');
    waiter.onStatus('running');
    waiter.onSnapshot('finished');
    await tick();
    expect(settled()).toEqual({ status: 'finished' });
  });

  it('fails with stuck after a stale snapshot, as the run goes on to be stuck', async () => {
    const { waiter, settled } = armed('idle');
    waiter.started();
    waiter.onSnapshot('paused');
    waiter.onStatus('running');
    waiter.onStatus('stuck');
    await tick();
    expect((settled() as { status?: string }).status).toBe('stuck');
  });

  it('takes the first terminal snapshot after the answer where a run may end without running', async () => {
    for (const status of ['finished', 'waiting_for_confirmation']) {
      const { waiter, settled } = armed(status);
      waiter.onSnapshot('finished');
      await tick();
      expect(settled(), status).toBe('pending');
      waiter.started();
      waiter.onSnapshot('finished');
      await tick();
      expect(settled(), status).toEqual({ status: 'finished' });
    }
  });
});

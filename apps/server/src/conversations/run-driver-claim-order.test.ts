// `RunDriver.runAfterMessage` waits for a claimed run (`reserve`) before it decides what a message sent with `run`
// asks for. The claimed run, once begun, is then a run in progress, and the message is booked on it as on any run
// (the re-run that follows an end that leaves the conversation idle). Deciding before the claim settles would take
// the conversation for idle and try a start of its own, which the claimed run refuses (409): the message would then
// rest on nothing but that run, and an idle end would leave it unanswered. Driven by hand with a fake conversation
// whose runs the test ends: no timing is involved.
import type { Conversation } from '@x/agent';
import { describe, expect, it, vi } from 'vitest';
import type { ManagedConversationDeps } from './managed-conversation-deps.js';
import { RunDriver } from './run-driver.js';

type Listener = (event: { kind: string; key?: string }) => void;

/** A conversation whose runs record their status, then go on until the test ends them with a status. */
function fakeConversation(): { conversation: Conversation; ends: ((status: string) => void)[] } {
  const listeners = new Set<Listener>();
  const ends: ((status: string) => void)[] = [];
  const fake = {
    state: { execution_status: 'idle', pending_actions: [] },
    isRunning: false,
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    run() {
      fake.isRunning = true;
      fake.state.execution_status = 'running';
      const run = new Promise<object>((resolve) => {
        ends.push((status) => {
          fake.state.execution_status = status;
          fake.isRunning = false;
          resolve({});
        });
      });
      for (const listener of listeners) listener({ kind: 'ConversationStateUpdateEvent', key: 'execution_status' });
      return run;
    },
  };
  return { conversation: fake as unknown as Conversation, ends };
}

function driverOf(conversation: Conversation): RunDriver {
  const logger = { info: () => undefined, warn: () => undefined };
  const deps = { logger, sandboxing: { assertCanRun: () => undefined } };
  return new RunDriver(
    {
      id: 'claim-order',
      isDeleted: () => false,
      open: async () => conversation,
      current: () => conversation,
      saveMeta: async () => undefined,
      publishFullState: () => undefined,
    },
    deps as unknown as Pick<ManagedConversationDeps, 'logger' | 'sandboxing' | 'shared' | 'approvalDeciders'>,
  );
}

describe('a message sent with run while a run is claimed', () => {
  it('waits for the claim, then is booked on the claimed run: an idle end of that run is followed by a re-run', async () => {
    const { conversation, ends } = fakeConversation();
    const driver = driverOf(conversation);
    const reservation = driver.reserve();
    const answered = driver.runAfterMessage();
    expect(ends).toHaveLength(0);

    await reservation.start();
    await answered;
    // One run: the claimed one, which the message joined; the message started none of its own.
    expect(ends).toHaveLength(1);

    // The claimed run ends with the conversation idle (nothing answered the message): the booked re-run starts.
    ends[0]?.('idle');
    await vi.waitFor(() => expect(ends).toHaveLength(2));
    ends[1]?.('finished');
    expect(await driver.waitFor(60_000)).toBe(true);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { Conversation, ConversationClosedError, readDecision } from '../src/index.js';
import { allEvents, DONE_REPLY, effectTool, readEffects, recordEffectCall } from './support/approval-tools.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

const call = recordEffectCall;
const done = DONE_REPLY;

const effects = () => readEffects(harness.workspace);

const resume = (id: string) =>
  Conversation.resume(id, {
    agent: harness.agent({ tools: [effectTool] }),
    workspace: harness.workspace,
    persistenceDir: harness.persistenceDir,
    durability: 'none',
  });

/** Lets `turns` turns of the event loop pass (each a round of I/O callbacks), not a duration. */
async function turns(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe('a denial racing with close()', () => {
  it('holds when it was acknowledged, and is absent or applied whole when it was refused, at every interleaving', async () => {
    harness = await startHarness(Array.from({ length: 60 }, () => [call('pending'), done]).flat());
    for (let offset = 0; offset < 24; offset++) {
      const { conversation } = await harness.conversation({
        agent: harness.agent({ tools: [effectTool] }),
        confirmationPolicy: { kind: 'AlwaysConfirm' },
      });
      await conversation.sendMessage('go');
      expect((await conversation.run()).status).toBe('waiting_for_confirmation');
      const [action] = await conversation.pendingActions();
      const deny = { action_id: action!.id, decision: { kind: 'deny' as const, reason: `no (${offset})` } };
      // Even offsets: the decision first, close after `offset / 2` turns; odd ones: close first, then the decision.
      const first =
        offset % 2 === 0 ? () => conversation.decide([deny], { principal: 'alice' }) : () => conversation.close();
      const second =
        offset % 2 === 0 ? () => conversation.close() : () => conversation.decide([deny], { principal: 'alice' });
      const started = first();
      await turns(Math.floor(offset / 2));
      const other = second();
      const [decision, closed] = (
        offset % 2 === 0 ? await Promise.allSettled([started, other]) : await Promise.allSettled([other, started])
      ) as [PromiseSettledResult<unknown>, PromiseSettledResult<unknown>];
      expect(closed.status, `close at offset ${offset}`).toBe('fulfilled');
      if (decision.status === 'rejected') {
        expect(decision.reason, `offset ${offset}`).toBeInstanceOf(ConversationClosedError);
      }
      const resumed = await resume(conversation.id);
      const record = await readDecision(resumed.store, resumed.directory, action!.id);
      if (decision.status === 'fulfilled') expect(record, `offset ${offset}`).toBeDefined();
      // Whatever was recorded is what the action gets: the resumed run applies a denial never carried into the log.
      await resumed.run();
      const answers = (await allEvents(resumed)).filter(
        (event) =>
          (event.kind === 'UserRejectObservation' || event.kind === 'ObservationEvent') &&
          event.action_id === action!.id,
      );
      expect(answers, `offset ${offset}`).toHaveLength(1);
      expect(answers[0]!.kind, `offset ${offset}`).toBe(
        record === undefined ? 'ObservationEvent' : 'UserRejectObservation',
      );
      await resumed.close();
    }
    expect((await effects()).length).toBeLessThanOrEqual(24);
  }, 120_000);
});

// Handoff with signing keys: each agent of a conversation signs the events it appends while it is in control, so a
// verifier sees who did what; the hand-over itself is signed by the agent handing over. Resumed, the agent the log
// names as in control signs again.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalFileStore, didKeyFromKey, EventLog, verifyEventSignatures } from '@x/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, Conversation, conversationDirName, createOfflineLLM, type OfflineTurn } from '../src/index.js';
import { workspaceIn } from './support/workspace-beside-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-handoff-signing-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

const newKey = () => generateKeyPairSync('ed25519').privateKey;
const finish = (message: string): OfflineTurn => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });
const transfer = (agent_name: string): OfflineTurn => ({
  toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name } }],
});

/** Each event's signer, by index, as a fresh reader verifies the log on disk. */
async function signersOnDisk(id: string) {
  const store = createLocalFileStore({ root: join(dir, 'data'), durability: 'none' });
  const log = await EventLog.open(store, { dir: `${conversationDirName(id)}/events` });
  const report = await verifyEventSignatures(log, log, { require: 'all' });
  return { log, report, events: await log.range(0) };
}

describe('a handoff between agents with their own signing keys', () => {
  it("signs each agent's events with its own key, before and after the transfer, and again once resumed", async () => {
    const triageKey = newKey();
    const billingKey = newKey();
    const options = async (billingScript: OfflineTurn[], triageScript: OfflineTurn[]) => {
      const triage = new Agent({
        name: 'triage',
        llm: createOfflineLLM({ script: triageScript }),
        signingKey: triageKey,
      });
      const billing = new Agent({ llm: createOfflineLLM({ script: billingScript }), signingKey: billingKey });
      return {
        agent: triage,
        agents: { triage, billing },
        workspace: await workspaceIn(dir),
        persistenceDir: join(dir, 'data'),
        durability: 'none' as const,
      };
    };
    const conversation = await Conversation.create(await options([finish('refunded')], [transfer('billing')]));
    await conversation.sendMessage('Refund order 7');
    expect(await conversation.run()).toMatchObject({ status: 'finished', agent: 'billing' });
    await conversation.close();

    const first = await signersOnDisk(conversation.id);
    expect(first.report.status).toBe('verified');
    const handOver = first.events.findIndex(
      (event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'active_agent',
    );
    const finishAction = first.events.findIndex(
      (event) => event.kind === 'ActionEvent' && event.tool_name === 'finish',
    );
    expect(handOver).toBeGreaterThan(0);
    const signerOf = (index: number) =>
      first.report.signers.find((signer) => signer.firstIndex <= index && index < signer.firstIndex + signer.events)
        ?.did;
    expect(first.report.signers.map((signer) => signer.did)).toEqual([
      didKeyFromKey(triageKey),
      didKeyFromKey(billingKey),
    ]);
    expect(signerOf(handOver)).toBe(didKeyFromKey(triageKey));
    expect(signerOf(finishAction)).toBe(didKeyFromKey(billingKey));

    // Resumed with triage first: the log says billing is in control, so billing signs what it appends.
    const resumed = await Conversation.resume(conversation.id, await options([finish('done again')], []));
    await resumed.sendMessage('And order 8');
    expect(await resumed.run()).toMatchObject({ status: 'finished', agent: 'billing' });
    await resumed.close();
    const second = await signersOnDisk(conversation.id);
    expect(second.report.status).toBe('verified');
    const billing = second.report.signers.find((signer) => signer.did === didKeyFromKey(billingKey));
    const triage = second.report.signers.find((signer) => signer.did === didKeyFromKey(triageKey));
    expect(triage?.events).toBe(first.report.signers[0]?.events);
    expect(billing?.events).toBe(second.log.length - (triage?.events ?? 0));
  });

  it("signs a fork's new events with the key of the agent in control: the one the log names, or the fork's own", async () => {
    const triageKey = newKey();
    const billingKey = newKey();
    const reviewerKey = newKey();
    const triage = new Agent({
      name: 'triage',
      llm: createOfflineLLM({ script: [transfer('billing')] }),
      signingKey: triageKey,
    });
    const billing = new Agent({
      llm: createOfflineLLM({ script: [finish('refunded'), finish('again')] }),
      signingKey: billingKey,
    });
    const conversation = await Conversation.create({
      agent: triage,
      agents: { triage, billing },
      workspace: await workspaceIn(dir),
      persistenceDir: join(dir, 'data'),
      durability: 'none',
    });
    await conversation.sendMessage('Refund order 7');
    await conversation.run();

    // Billing is in control of the fork too: what the fork appends is billing's.
    const fork = await conversation.fork({});
    const copied = fork.state.event_count;
    await fork.sendMessage('And order 8');
    expect(await fork.run()).toMatchObject({ status: 'finished', agent: 'billing' });
    await fork.close();
    const forked = await signersOnDisk(fork.id);
    expect(forked.report.status).toBe('verified');
    const billingSigned = forked.report.signers.find((signer) => signer.did === didKeyFromKey(billingKey));
    expect(billingSigned?.events).toBeGreaterThanOrEqual(forked.log.length - copied);

    // A fork given its own agent (another prompt, another key) signs what it appends with that agent's key.
    const reviewer = new Agent({
      name: 'reviewer',
      llm: createOfflineLLM({ script: [finish('reviewed')] }),
      systemPrompt: 'You review refunds.',
      signingKey: reviewerKey,
    });
    const review = await conversation.fork({ agent: reviewer });
    const before = review.state.event_count;
    await review.sendMessage('Review it');
    expect((await review.run()).status).toBe('finished');
    await review.close();
    await conversation.close();
    const reviewed = await signersOnDisk(review.id);
    expect(reviewed.report.status).toBe('verified');
    const reviewerSigned = reviewed.report.signers.find((signer) => signer.did === didKeyFromKey(reviewerKey));
    expect(reviewerSigned?.events).toBeGreaterThanOrEqual(reviewed.log.length - before);
  });
});

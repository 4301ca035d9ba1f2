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
});

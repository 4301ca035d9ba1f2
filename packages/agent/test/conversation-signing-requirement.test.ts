// Which events of a conversation must be signed for `verifyEventSignatures` to say `verified`: by default every event
// from the first signed one on. A conversation whose last signature records were deleted, or one resumed without
// its key, is `incomplete`; one resumed with a key for the first time is verified with an unsigned prefix.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createLocalFileStore,
  didKeyFromKey,
  EventLog,
  type SignatureRequirement,
  signatureRecordPath,
  verifyEventSignatures,
} from '@x/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, Conversation, conversationDirName, createOfflineLLM, type OfflineTurn } from '../src/index.js';
import { workspaceIn } from './support/workspace-beside-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-signing-requirement-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

const finish = (message: string): OfflineTurn => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });
const newKey = () => generateKeyPairSync('ed25519').privateKey;

/** The conversation's events and signatures as a fresh reader finds them on disk. */
async function readBack(id: string, require?: SignatureRequirement) {
  const store = createLocalFileStore({ root: join(dir, 'data'), durability: 'none' });
  const log = await EventLog.open(store, { dir: `${conversationDirName(id)}/events` });
  const report = await verifyEventSignatures(log, log, require === undefined ? {} : { require });
  return { store, log, ids: (await log.range(0)).map((event) => event.id), report };
}

/** One turn: `message` sent and answered, the agent and the user signing with `key` when one is given. */
async function turn(id: string | undefined, message: string, key: KeyObject | undefined): Promise<string> {
  const options = {
    agent: new Agent({ llm: createOfflineLLM({ script: [finish(`done: ${message}`)] }), signingKey: key }),
    workspace: await workspaceIn(dir),
    persistenceDir: join(dir, 'data'),
    durability: 'none' as const,
  };
  const conversation = id === undefined ? await Conversation.create(options) : await Conversation.resume(id, options);
  await conversation.sendMessage(message);
  expect((await conversation.run()).status).toBe('finished');
  await conversation.close();
  return conversation.id;
}

describe('a signed conversation on the local file store', () => {
  it('is incomplete once the signature records of its last events are deleted, naming the first of them', async () => {
    const id = await turn(undefined, 'Sign everything', newKey());
    const before = await readBack(id);
    expect(before.report).toMatchObject({ status: 'verified', unsigned: 0 });

    const tail = before.ids.length - 2;
    for (const eventId of before.ids.slice(tail)) {
      await before.store.delete(signatureRecordPath(before.log.dir, eventId));
    }
    const { report } = await readBack(id);
    expect(report).toMatchObject({
      status: 'incomplete',
      signed: tail,
      unsigned: 2,
      firstUnsigned: tail,
      unsignedPrefix: 0,
      missing: { index: tail, id: before.ids[tail] },
    });
    expect((await readBack(id, 'none')).report).toMatchObject({ status: 'verified', unsigned: 2 });
  });
});

describe('a conversation resumed with a signing key, then without one', () => {
  it('is verified with its earlier events as an unsigned prefix, then incomplete at the first unsigned event', async () => {
    const key = newKey();
    const id = await turn(undefined, 'Not signed yet', undefined);
    const prefix = (await readBack(id)).ids.length;

    await turn(id, 'Signed from here', key);
    const signed = await readBack(id);
    expect(signed.report).toMatchObject({
      status: 'verified',
      unsigned: prefix,
      unsignedPrefix: prefix,
      missing: undefined,
      signers: [{ did: didKeyFromKey(key), events: signed.ids.length - prefix, firstIndex: prefix }],
    });
    // Every event must be signed: the events from before the key are not.
    expect((await readBack(id, 'all')).report).toMatchObject({
      status: 'incomplete',
      missing: { index: 0, id: signed.ids[0] },
    });

    await turn(id, 'The key is gone', undefined);
    const { ids, report } = await readBack(id);
    expect(ids.length).toBeGreaterThan(signed.ids.length);
    expect(report).toMatchObject({
      status: 'incomplete',
      unsignedPrefix: prefix,
      missing: { index: signed.ids.length, id: ids[signed.ids.length] },
    });
  });
});

describe('a conversation where only the approver signs', () => {
  it("is incomplete by default (the agent's events are unsigned), verified when no event must be signed", async () => {
    const approverKey = newKey();
    const conversation = await Conversation.create({
      agent: new Agent({ llm: createOfflineLLM({ script: [finish('done')] }) }),
      approverSigningKey: approverKey,
      workspace: await workspaceIn(dir),
      persistenceDir: join(dir, 'data'),
      durability: 'none',
    });
    await conversation.sendMessage('Only I sign');
    await conversation.run();
    await conversation.close();
    const { log, report } = await readBack(conversation.id);
    const events = await log.range(0);
    const firstUser = events.findIndex((event) => event.source === 'user');
    const firstAgentAfter = events.findIndex((event, index) => index > firstUser && event.source !== 'user');
    expect(report).toMatchObject({
      status: 'incomplete',
      unsignedPrefix: firstUser,
      missing: { index: firstAgentAfter, id: events[firstAgentAfter]!.id },
      signers: [{ did: didKeyFromKey(approverKey) }],
    });
    expect((await readBack(conversation.id, 'none')).report).toMatchObject({ status: 'verified' });
  });
});

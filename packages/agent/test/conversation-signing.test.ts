import { generateKeyPairSync } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FieldSets, fieldSetProblems } from '@x/events/testing';
import { createLocalFileStore, didKeyFromKey, EventLog, type SignatureLocation, verifyEventSignatures } from '@x/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Agent,
  Conversation,
  conversationDirName,
  createDelegateTool,
  createOfflineLLM,
  type OfflineTurn,
} from '../src/index.js';
import { workspaceIn } from './support/workspace-beside-store.js';

const sets: FieldSets = JSON.parse(
  await readFile(new URL('../../events/test/__fixtures__/reference-field-sets.json', import.meta.url), 'utf8'),
);
const FIXTURES = fileURLToPath(new URL('../../events/test/__fixtures__/openhands/', import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-signing-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

const finish = (message: string): OfflineTurn => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });
const newKey = () => generateKeyPairSync('ed25519').privateKey;

/** The conversation's events and signature records as a fresh reader finds them on disk. */
async function readBack(id: string) {
  const store = createLocalFileStore({ root: join(dir, 'data'), durability: 'none' });
  const log = await EventLog.open(store, { dir: `${conversationDirName(id)}/events` });
  return { log, report: await verifyEventSignatures(log, log) };
}

describe('a conversation with signing keys', () => {
  it('signs every event: the agent as itself, the approver for the user; event files stay reference-shaped', async () => {
    const agentKey = newKey();
    const approverKey = newKey();
    const conversation = await Conversation.create({
      agent: new Agent({
        llm: createOfflineLLM({
          script: [{ toolCalls: [{ name: 'think', arguments: { thought: 'plan' } }] }, finish('done')],
        }),
        signingKey: agentKey,
      }),
      approverSigningKey: approverKey,
      workspace: await workspaceIn(dir),
      persistenceDir: join(dir, 'data'),
      durability: 'none',
    });
    await conversation.sendMessage('Sign everything');
    expect((await conversation.run()).status).toBe('finished');
    await conversation.close();

    const { log, report } = await readBack(conversation.id);
    expect(report).toMatchObject({ status: 'verified', unsigned: 0, problem: undefined });
    expect(report.signed).toBe(log.length);
    const signers = Object.fromEntries(report.signers.map((signer) => [signer.did, signer.events]));
    const userEvents = (await log.range(0)).filter((event) => event.source === 'user').length;
    expect(signers).toEqual({
      [didKeyFromKey(approverKey)]: userEvents,
      [didKeyFromKey(agentKey)]: log.length - userEvents,
    });
    const eventsDir = join(dir, 'data', conversationDirName(conversation.id), 'events');
    for (const name of (await readdir(eventsDir)).filter((file) => file.startsWith('event-'))) {
      const json = JSON.parse(await readFile(join(eventsDir, name), 'utf8'));
      expect(fieldSetProblems(sets, json)).toEqual([]);
    }
  });

  it('names the event whose content was changed after signing', async () => {
    const conversation = await Conversation.create({
      agent: new Agent({
        llm: createOfflineLLM({ script: [finish('the answer is forty-two')] }),
        signingKey: newKey(),
      }),
      workspace: await workspaceIn(dir),
      persistenceDir: join(dir, 'data'),
      durability: 'none',
    });
    await conversation.sendMessage('What is the answer?');
    await conversation.run();
    await conversation.close();
    const eventsDir = join(dir, 'data', conversationDirName(conversation.id), 'events');
    const names = (await readdir(eventsDir)).filter((file) => file.startsWith('event-')).sort();
    const index = (
      await Promise.all(
        names.map(async (name) => (await readFile(join(eventsDir, name), 'utf8')).includes('forty-two')),
      )
    ).lastIndexOf(true);
    const text = await readFile(join(eventsDir, names[index]!), 'utf8');
    await writeFile(join(eventsDir, names[index]!), text.replace('forty-two', 'forty-one'));
    const { report } = await readBack(conversation.id);
    expect(report.status).toBe('invalid');
    expect(report.problem).toMatchObject({ kind: 'altered', index });
  });

  it("signs with the conversation's signingKey rather than its agent's, the user's events too", async () => {
    const conversationKey = newKey();
    const conversation = await Conversation.create({
      agent: new Agent({ llm: createOfflineLLM({ script: [finish('done')] }), signingKey: newKey() }),
      signingKey: conversationKey,
      workspace: await workspaceIn(dir),
      persistenceDir: join(dir, 'data'),
      durability: 'none',
    });
    await conversation.sendMessage('Whose key?');
    await conversation.run();
    await conversation.close();
    const { log, report } = await readBack(conversation.id);
    expect(report).toMatchObject({ status: 'verified', unsigned: 0 });
    expect(report.signers).toEqual([{ did: didKeyFromKey(conversationKey), events: log.length, firstIndex: 0 }]);
  });

  it('gives a sub-agent its own identity', async () => {
    const parentKey = newKey();
    const childKey = newKey();
    const children: Conversation[] = [];
    const tool = createDelegateTool({
      agentTypes: {
        default: {
          createAgent: () => new Agent({ llm: createOfflineLLM({ script: [finish('child done')] }) }),
          signingKey: childKey,
        },
      },
      onSubConversation: ({ conversation }) => children.push(conversation),
    });
    const parent = await Conversation.create({
      agent: new Agent({
        llm: createOfflineLLM({
          script: [
            { toolCalls: [{ name: 'delegate', arguments: { command: 'spawn', ids: ['helper'] } }] },
            { toolCalls: [{ name: 'delegate', arguments: { command: 'delegate', tasks: { helper: 'help' } } }] },
            finish('all delegated'),
          ],
        }),
        tools: [tool],
        signingKey: parentKey,
      }),
      workspace: await workspaceIn(dir),
      persistenceDir: join(dir, 'data'),
      durability: 'none',
    });
    await parent.sendMessage('Split the work');
    expect((await parent.run()).status).toBe('finished');
    const child = children[0]!;
    const childReport = await verifyEventSignatures(child.log, child.log as unknown as SignatureLocation);
    expect(childReport).toMatchObject({ status: 'verified', unsigned: 0 });
    expect(childReport.signers.map((signer) => signer.did)).toEqual([didKeyFromKey(childKey)]);
    await parent.close();
    const { report } = await readBack(parent.id);
    expect(report.signers.map((signer) => signer.did)).toEqual([didKeyFromKey(parentKey)]);
  });
});

describe('a conversation the Python reference wrote', () => {
  it('still loads with a signing key; what x appends to it is signed, what the reference wrote is not', async () => {
    const id = 'e88b7591-31db-4e32-98dc-b35f94c662cd';
    await cp(join(FIXTURES, '01_simple_message_reply'), join(dir, 'data', conversationDirName(id)), {
      recursive: true,
    });
    const before = await readBack(id);
    const key = newKey();
    const conversation = await Conversation.resume(id, {
      agent: new Agent({ llm: createOfflineLLM({ script: [finish('again')] }), signingKey: key }),
      workspace: await workspaceIn(dir),
      persistenceDir: join(dir, 'data'),
      durability: 'none',
    });
    expect(conversation.state.event_count).toBe(before.log.length);
    await conversation.sendMessage('Once more');
    await conversation.run();
    await conversation.close();
    const { log, report } = await readBack(id);
    expect(report).toMatchObject({
      status: 'verified',
      unsigned: before.log.length,
      firstUnsigned: 0,
      signed: log.length - before.log.length,
    });
    expect(report.signers).toEqual([{ did: didKeyFromKey(key), events: report.signed, firstIndex: before.log.length }]);
  });
});

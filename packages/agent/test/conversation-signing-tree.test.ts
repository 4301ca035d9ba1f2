import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalFileStore, EventLog, verifyEventSignatures } from '@x/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, Conversation, conversationDirName, createOfflineLLM, type OfflineTurn } from '../src/index.js';
import { workspaceIn } from './support/workspace-beside-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-signing-tree-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

const finish = (message: string): OfflineTurn => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });

describe('a signed conversation that branches', () => {
  it('verifies after navigating back and forking: every signed parent is before its event, if not just before', async () => {
    const key = generateKeyPairSync('ed25519').privateKey;
    const llm = createOfflineLLM({ script: [finish('a'), finish('b'), finish('c')] });
    const conversation = await Conversation.create({
      agent: new Agent({ llm, signingKey: key }),
      approverSigningKey: key,
      workspace: await workspaceIn(dir),
      persistenceDir: join(dir, 'data'),
      durability: 'none',
    });
    await conversation.sendMessage('one');
    await conversation.run();
    const first = (await conversation.activeBranch()).find((event) => event.kind === 'MessageEvent');
    await conversation.navigateTo(first?.id ?? null);
    await conversation.sendMessage('two');
    await conversation.run();
    const forked = await conversation.fork();
    await forked.sendMessage('three');
    await forked.run();
    for (const branched of [conversation, forked]) {
      await branched.close();
      const store = createLocalFileStore({ root: join(dir, 'data'), durability: 'none' });
      const log = await EventLog.open(store, { dir: `${conversationDirName(branched.id)}/events` });
      const report = await verifyEventSignatures(log, log, { require: 'all', trustedSigners: [key] });
      expect(report).toMatchObject({ status: 'verified', problem: undefined, missing: undefined });
    }
  });
});

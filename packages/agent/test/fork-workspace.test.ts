// The workspace of a fork: the one given to `fork`, else its source's, so a fork of a fork works where its source did.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('Conversation.fork and its workspace', () => {
  it("is the one given, and a fork of that fork without one keeps it, not the first conversation's", async () => {
    harness = await startHarness();
    const { conversation } = await harness.conversation();
    await conversation.sendMessage('hello');
    const forkWorkspace = join(harness.persistenceDir, 'fork-ws');
    await mkdir(forkWorkspace);
    const fork = await conversation.fork({ workspace: forkWorkspace });
    expect(fork.workspace).toBe(forkWorkspace);
    const again = await fork.fork();
    expect(again.workspace).toBe(forkWorkspace);
    const plain = await conversation.fork();
    expect(plain.workspace).toBe(harness.workspace);
    for (const open of [again, fork, plain, conversation]) await open.close();
  });
});

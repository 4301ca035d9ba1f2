// The secrets of a resumed conversation: the ones recorded in base_state.json, unless the caller gives its own.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The secret names base_state.json records after a checkpoint of `conversation`. */
async function recordedSecretNames(conversation: Conversation, persistenceDir: string): Promise<string> {
  await conversation.setConfirmationPolicy({ kind: 'NeverConfirm' });
  const path = join(persistenceDir, conversation.id.replaceAll('-', ''), 'base_state.json');
  const state = JSON.parse(await readFile(path, 'utf8')) as { secret_registry: unknown };
  return JSON.stringify(state.secret_registry);
}

describe('Conversation.resume and secrets', () => {
  it('keeps the recorded secrets when none are given, and takes the given ones instead of them', async () => {
    harness = await startHarness();
    const h = harness;
    const { conversation } = await h.conversation({ secrets: { OLD_TOKEN: 'old-1' }, secretKey: 'storage key' });
    await conversation.close();
    const open = (secrets?: Record<string, string>) =>
      Conversation.resume(conversation.id, {
        agent: h.agent(),
        persistenceDir: h.persistenceDir,
        secretKey: 'storage key',
        ...(secrets === undefined ? {} : { secrets }),
      });

    const kept = await open();
    expect(await recordedSecretNames(kept, h.persistenceDir)).toContain('OLD_TOKEN');
    await kept.close();

    const replaced = await open({ NEW_TOKEN: 'new-1' });
    const names = await recordedSecretNames(replaced, h.persistenceDir);
    expect(names).toContain('NEW_TOKEN');
    expect(names).not.toContain('OLD_TOKEN');
    await replaced.close();
  });
});

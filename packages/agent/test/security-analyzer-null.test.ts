// `securityAnalyzer: null` is the reference's None, the same as `'none'`, wherever an analyzer is given: at create and
// resume as at `setSecurityAnalyzer` (which already took it so).
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

async function baseState(conversation: Conversation, persistenceDir: string): Promise<Record<string, unknown>> {
  const text = await readFile(join(persistenceDir, conversation.id.replaceAll('-', ''), 'base_state.json'), 'utf8');
  return JSON.parse(text) as Record<string, unknown>;
}

describe('securityAnalyzer: null', () => {
  it('creates a conversation without an analyzer, recorded as none', async () => {
    harness = await startHarness();
    const { conversation } = await harness.conversation({
      securityAnalyzer: null,
      confirmationPolicy: { kind: 'AlwaysConfirm' },
    });
    expect(conversation.confirmationPolicyActive).toBe(true);
    expect(conversation.isConfirmationModeActive).toBe(false);
    const written = await baseState(conversation, harness.persistenceDir);
    expect(written.security_analyzer).toBeUndefined();
    expect((written.agent_state as Record<string, unknown>).x_security_analyzer).toBe('none');
    await conversation.close();
  });

  it('resumes a conversation recorded with the LLM analyzer without one', async () => {
    harness = await startHarness();
    const { conversation } = await harness.conversation({ confirmationPolicy: { kind: 'AlwaysConfirm' } });
    expect(conversation.isConfirmationModeActive).toBe(true);
    await conversation.close();
    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      persistenceDir: harness.persistenceDir,
      securityAnalyzer: null,
    });
    expect(resumed.isConfirmationModeActive).toBe(false);
    await resumed.close();
  });
});

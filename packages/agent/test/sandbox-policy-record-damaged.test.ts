// A conversation whose sandbox policy record (x_sandbox_policy.json) is damaged: resuming it, with or without a
// policy given, fails naming the file, and leaves the record as it was (before, it was read as no record, the
// default policy ran, and the next write replaced the audit). Moving it aside lets the conversation go on.
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation, DamagedSandboxPolicyRecordError, SANDBOX_POLICY_FILE } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

describe('a damaged sandbox policy record', () => {
  it('fails the resume with DamagedSandboxPolicyRecordError naming it, kept as it is, until moved aside', async () => {
    harness = await startHarness();
    const { conversation } = await harness.conversation({ sandbox: { network: { mode: 'all' } } });
    await conversation.close();
    const { store, directory } = conversation;
    const path = `${directory}/${SANDBOX_POLICY_FILE}`;
    expect(await store.exists(path)).toBe(true);
    const damaged = '{"version":1,"entries":[{"policy":{"mode":"sandboxed","network":{"mode":"al';
    await store.write(path, damaged);

    for (const sandbox of [undefined, {}]) {
      const resumed = Conversation.resume(conversation.id, {
        agent: harness.agent(),
        store,
        workspace: harness.workspace,
        ...(sandbox === undefined ? {} : { sandbox }),
      });
      const error = await resumed.then(
        async (opened) => {
          await opened.close();
          return undefined;
        },
        (thrown: unknown) => thrown,
      );
      expect(DamagedSandboxPolicyRecordError.isInstance(error), `sandbox: ${JSON.stringify(sandbox)}`).toBe(true);
      expect((error as DamagedSandboxPolicyRecordError).message).toContain(path);
      expect(await store.read(path)).toBe(damaged);
    }

    await store.delete(path);
    const resumed = await Conversation.resume(conversation.id, { agent: harness.agent(), store, sandbox: {} });
    expect(resumed.sandboxPolicy.network).toEqual({ mode: 'none' });
    await resumed.close();
  });
});

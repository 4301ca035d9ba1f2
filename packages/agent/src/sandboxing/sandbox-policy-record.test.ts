import { createMemoryFileStore, type FileStore } from '@x/store';
import { beforeEach, describe, expect, it } from 'vitest';
import { sandboxPolicySchema } from '../sandbox/sandbox-policy.js';
import { DamagedSandboxPolicyRecordError } from './damaged-sandbox-policy-record-error.js';
import {
  currentSandboxPolicy,
  readSandboxPolicyRecord,
  recordSandboxPolicy,
  SANDBOX_POLICY_FILE,
} from './sandbox-policy-record.js';

const directory = 'conv-1';
const path = `${directory}/${SANDBOX_POLICY_FILE}`;
const first = sandboxPolicySchema.parse({ writablePaths: ['/srv/cache'] });
const second = sandboxPolicySchema.parse({ network: { mode: 'allowlist', hosts: ['example.com'] } });

let store: FileStore;
beforeEach(() => {
  store = createMemoryFileStore();
});

describe('recordSandboxPolicy', () => {
  it('starts the record, then adds a policy only when it differs from the one in force', async () => {
    await recordSandboxPolicy(store, directory, { policy: first, sinceEvent: 0, now: new Date(1_000) });
    await recordSandboxPolicy(store, directory, { policy: first, sinceEvent: 5, now: new Date(2_000) });
    await recordSandboxPolicy(store, directory, { policy: second, sinceEvent: 7, now: new Date(3_000) });
    // The first again: in force before, but not now.
    await recordSandboxPolicy(store, directory, { policy: first, sinceEvent: 9, now: new Date(4_000) });
    expect(JSON.parse(await store.read(path))).toEqual({
      version: 1,
      entries: [
        { policy: first, since_event: 0, recorded_at: new Date(1_000).toISOString() },
        { policy: second, since_event: 7, recorded_at: new Date(3_000).toISOString() },
        { policy: first, since_event: 9, recorded_at: new Date(4_000).toISOString() },
      ],
    });
    expect(currentSandboxPolicy(await readSandboxPolicyRecord(store, directory))).toEqual(first);
  });

  it('takes the same policy with its keys in another order for the one in force', async () => {
    await recordSandboxPolicy(store, directory, { policy: second, sinceEvent: 0 });
    const reordered = Object.fromEntries(Object.entries(second).reverse()) as typeof second;
    await recordSandboxPolicy(store, directory, { policy: reordered, sinceEvent: 3 });
    expect((await readSandboxPolicyRecord(store, directory))?.entries).toHaveLength(1);
  });
});

describe('readSandboxPolicyRecord', () => {
  it('is undefined without a record', async () => {
    expect(await readSandboxPolicyRecord(store, directory)).toBeUndefined();
    expect(currentSandboxPolicy(undefined)).toBeUndefined();
  });

  it('refuses one that does not parse, naming the file and what is wrong, and no write replaces it', async () => {
    for (const [bad, problem] of [
      ['not json', 'not JSON'],
      [JSON.stringify({ version: 1, entries: [] }), 'entries:'],
      [JSON.stringify({ version: 2, entries: [{ policy: {}, since_event: 0, recorded_at: 'x' }] }), 'version:'],
      [
        JSON.stringify({ version: 1, entries: [{ policy: { mode: 'nope' }, since_event: 0, recorded_at: 'x' }] }),
        'entries.0.policy.mode:',
      ],
      [JSON.stringify({ version: 1, entries: [{ policy: {}, since_event: -1, recorded_at: 'x' }] }), 'since_event:'],
    ] as const) {
      await store.write(path, bad);
      const read = await readSandboxPolicyRecord(store, directory).catch((error: unknown) => error);
      expect(DamagedSandboxPolicyRecordError.isInstance(read), bad).toBe(true);
      const damaged = read as DamagedSandboxPolicyRecordError;
      expect(damaged).toMatchObject({ code: 'sandbox_policy_record_damaged', path });
      expect(damaged.problem, bad).toContain(problem);
      expect(damaged.message).toContain(`${path} is damaged`);
      expect(damaged.message).toContain('move it aside or delete it');
      await expect(recordSandboxPolicy(store, directory, { policy: first, sinceEvent: 3 })).rejects.toThrow(
        DamagedSandboxPolicyRecordError,
      );
      expect(await store.read(path), bad).toBe(bad);
    }
  });

  it('starts anew once the damaged record is moved aside', async () => {
    await store.write(path, '{"version":1,');
    await expect(readSandboxPolicyRecord(store, directory)).rejects.toThrow(DamagedSandboxPolicyRecordError);
    await store.delete(path);
    await recordSandboxPolicy(store, directory, { policy: second, sinceEvent: 4 });
    expect(currentSandboxPolicy(await readSandboxPolicyRecord(store, directory))).toEqual(second);
  });
});

// The durable decision records: the first decision for an action holds (a second writer gets it back, not its
// own), an action id cannot place its record outside `.decisions/`, and a record or edit outbox entry that cannot
// be read back is an error naming the file, never "undecided".
import { createMemoryFileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from './decision.js';
import {
  claimDecision,
  decisionRecordPath,
  editOutboxPath,
  readDecision,
  readEditOutboxEntry,
} from './decision-records.js';
import { DecisionRecordDamagedError } from './errors/decision-record-damaged-error.js';

const directory = 'conversations/c1';

function record(overrides: Partial<DecisionRecord> = {}): DecisionRecord {
  return {
    action_id: 'action-1',
    tool_name: 'terminal',
    tool_call_id: 'call_1',
    decision: { kind: 'approve' },
    principal: 'api-key:ops',
    decided_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

async function damage(run: () => Promise<unknown>): Promise<DecisionRecordDamagedError> {
  const thrown = await run().then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(DecisionRecordDamagedError.isInstance(thrown)).toBe(true);
  return thrown as DecisionRecordDamagedError;
}

describe('claimDecision', () => {
  it('records the first decision and answers a later one with it', async () => {
    const store = createMemoryFileStore();
    expect(await readDecision(store, directory, 'action-1')).toBe(undefined);
    const approval = record();
    expect(await claimDecision(store, directory, approval)).toEqual({ created: true, record: approval });

    const denial = record({ decision: { kind: 'deny', reason: 'no' }, principal: 'rule:careful' });
    expect(await claimDecision(store, directory, denial)).toEqual({ created: false, record: approval });
    expect(await readDecision(store, directory, 'action-1')).toEqual(approval);
    expect(await readDecision(store, directory, 'action-2')).toBe(undefined);
  });

  it('keeps the records of two actions apart', async () => {
    const store = createMemoryFileStore();
    await claimDecision(store, directory, record());
    const other = record({ action_id: 'action-2', decision: { kind: 'deny', reason: 'no' } });
    expect((await claimDecision(store, directory, other)).created).toBe(true);
    expect(await readDecision(store, directory, 'action-2')).toEqual(other);
  });
});

describe('where a record lives', () => {
  it('stays one file inside .decisions/ whatever the action id holds', () => {
    const folder = `${directory}/events/.decisions/`;
    for (const id of ['../../base_state', 'a/b', 'edits/x']) {
      const path = decisionRecordPath(directory, id);
      expect(path.startsWith(folder)).toBe(true);
      expect(path.slice(folder.length)).not.toContain('/');
    }
    const outbox = editOutboxPath(directory, '../x');
    expect(outbox.startsWith(`${folder}edits/`)).toBe(true);
    expect(outbox.slice(`${folder}edits/`.length)).not.toContain('/');
  });
});

describe('a record that cannot be read back', () => {
  it('is damaged, naming the file and why, when it is not JSON or not a record', async () => {
    const store = createMemoryFileStore();
    const path = decisionRecordPath(directory, 'action-1');
    await store.write(path, '{"action_id":');
    const notJson = await damage(() => readDecision(store, directory, 'action-1'));
    expect(notJson.record).toBe(store.describe(path));
    expect(notJson.message).toContain('not JSON');

    await store.write(path, JSON.stringify({ ...record(), principal: '' }));
    const notRecord = await damage(() => readDecision(store, directory, 'action-1'));
    expect(notRecord.message).toContain('principal');
    // Nor may a claim treat it as undecided and record a second decision over it.
    await damage(() => claimDecision(store, directory, record()));
  });

  it('is damaged for an edit outbox entry without its original action', async () => {
    const store = createMemoryFileStore();
    const path = editOutboxPath(directory, 'replacement-1');
    await store.write(path, JSON.stringify({ original_action_id: 'action-1' }));
    expect(await readEditOutboxEntry(store, path)).toBe('action-1');
    await store.write(path, JSON.stringify({ original_action_id: '' }));
    const error = await damage(() => readEditOutboxEntry(store, path));
    expect(error.message).toContain('original_action_id');
    await store.write(path, 'not json');
    expect((await damage(() => readEditOutboxEntry(store, path))).message).toContain('not JSON');
  });
});

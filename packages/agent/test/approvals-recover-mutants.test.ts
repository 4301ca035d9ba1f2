import { type ActionEvent, type AnyEvent, createEvent } from '@x/events';
import { createMemoryFileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import type { ApprovalHost } from '../src/approvals/approval-host.js';
import { decidePendingActions, recoverEditedActions } from '../src/approvals/decide.js';
import { claimDecision, editOutboxPath } from '../src/approvals/decision-records.js';
import {
  ActionNotPendingError,
  DecisionConflictError,
  DecisionRecordDamagedError,
  readDecision,
} from '../src/index.js';
import type { ConversationState } from '../src/state/conversation-state.js';
import type { ExecutionStatus } from '../src/state/execution-status.js';
import { effectTool } from './support/approval-tools.js';

/*
 * `decidePendingActions` and `recoverEditedActions` against an in-memory conversation: a log, a status and a store,
 * so a crash between answering an edited call and appending its replacement is one failing `emit`.
 */

const directory = 'conversations/c1';

function originalCall(callId = 'call_1'): ActionEvent {
  return createEvent('ActionEvent', {
    thought: [],
    action: { kind: 'RecordEffectAction', label: 'original' },
    tool_name: 'record_effect',
    tool_call_id: callId,
    tool_call: { id: callId, name: 'record_effect', arguments: '{"label":"original"}', origin: 'completion' },
    llm_response_id: 'response-1',
  }) as ActionEvent;
}

function memoryConversation(status: ExecutionStatus) {
  const log: AnyEvent[] = [];
  let executionStatus = status;
  let failAppendingActions = false;
  const answered = () =>
    new Set(log.flatMap((event) => (event.kind !== 'ActionEvent' && 'action_id' in event ? [event.action_id] : [])));
  const host: ApprovalHost = {
    conversationId: 'c1',
    store: createMemoryFileStore(),
    directory,
    tools: [effectTool],
    state: () => ({ execution_status: executionStatus }) as ConversationState,
    pendingActions: async () =>
      log.filter((event): event is ActionEvent => event.kind === 'ActionEvent' && !answered().has(event.id)),
    getEvent: async (id) => log.find((event) => event.id === id),
    emit: async (event) => {
      if (failAppendingActions && event.kind === 'ActionEvent') throw new Error('the process died here');
      log.push(event);
      // As the reference's fold: a waiting conversation is idle at any rejection, though others of the batch wait.
      if (event.kind === 'UserRejectObservation' && executionStatus === 'waiting_for_confirmation') {
        executionStatus = 'idle';
      }
    },
    setStatus: async (next) => {
      executionStatus = next;
    },
  };
  return {
    host,
    log,
    crashBeforeAppendingActions: (crash: boolean) => {
      failAppendingActions = crash;
    },
  };
}

describe('an approved edit cut short before its call is in the log', () => {
  async function cutShortEdit() {
    const conversation = memoryConversation('waiting_for_confirmation');
    const original = originalCall();
    conversation.log.push(original);
    conversation.crashBeforeAppendingActions(true);
    const edit = decidePendingActions(
      conversation.host,
      [{ action_id: original.id, decision: { kind: 'approve', arguments: { label: 'edited' } } }],
      { principal: 'alice' },
    );
    await expect(edit).rejects.toThrow('the process died here');
    conversation.crashBeforeAppendingActions(false);
    const record = await readDecision(conversation.host.store, directory, original.id);
    return { ...conversation, original, replacementId: record!.replacement_action_id! };
  }

  it('is finished by the next recovery: the edited call is appended under its id, approved, its outbox gone', async () => {
    const { host, log, original, replacementId } = await cutShortEdit();
    expect(log.map((event) => event.kind)).toEqual(['ActionEvent', 'UserRejectObservation']);
    expect(await host.store.exists(editOutboxPath(directory, replacementId))).toBe(true);

    await recoverEditedActions(host);

    const replacement = log.at(-1);
    expect(replacement).toMatchObject({
      kind: 'ActionEvent',
      id: replacementId,
      tool_call_id: 'call_1_edited',
      action: { label: 'edited' },
    });
    expect(await readDecision(host.store, directory, replacementId)).toMatchObject({
      action_id: replacementId,
      decision: { kind: 'approve' },
      principal: 'alice',
      edited_from: original.id,
    });
    expect(await host.store.exists(editOutboxPath(directory, replacementId))).toBe(false);
    expect((await host.pendingActions()).map((action) => action.id)).toEqual([replacementId]);
  });

  it('leaves files in the outbox that are not entries alone, and recovers once however often it runs', async () => {
    const { host, log, replacementId } = await cutShortEdit();
    const stray = `${directory}/events/.decisions/edits/notes.txt`;
    await host.store.write(stray, 'not an entry');

    await recoverEditedActions(host);
    await recoverEditedActions(host);

    expect(log.filter((event) => event.id === replacementId)).toHaveLength(1);
    expect(await host.store.read(stray)).toBe('not an entry');
  });
});

describe('an approved edit not cut short', () => {
  it('leaves the edited call approved by the person who edited it, and no outbox entry', async () => {
    const { host, log } = memoryConversation('waiting_for_confirmation');
    const original = originalCall();
    log.push(original);
    const [record] = await decidePendingActions(
      host,
      [{ action_id: original.id, decision: { kind: 'approve', arguments: { label: 'edited' } } }],
      { principal: 'alice' },
    );
    const replacementId = record!.replacement_action_id!;
    expect(await readDecision(host.store, directory, replacementId)).toMatchObject({
      principal: 'alice',
      edited_from: original.id,
    });
    expect(await host.store.exists(editOutboxPath(directory, replacementId))).toBe(false);
  });
});

describe('a decision for a pending action another writer has just decided', () => {
  it('is a DecisionConflictError naming the decision that holds, and carries nothing into the log', async () => {
    const { host, log } = memoryConversation('waiting_for_confirmation');
    const original = originalCall();
    log.push(original);
    // Another replica recorded its denial and has not yet carried it into the log: the action is still pending.
    const denial = {
      action_id: original.id,
      tool_name: original.tool_name,
      tool_call_id: original.tool_call_id,
      decision: { kind: 'deny' as const, reason: 'not now' },
      principal: 'bob',
      decided_at: new Date(0).toISOString(),
    };
    await claimDecision(host.store, directory, denial);
    const attempt = decidePendingActions(host, [{ action_id: original.id, decision: { kind: 'approve' } }], {
      principal: 'alice',
    });
    await expect(attempt).rejects.toBeInstanceOf(DecisionConflictError);
    await expect(attempt).rejects.toThrow('bob');
    expect(log).toEqual([original]);
  });
});

describe('a denial of one call of two', () => {
  it('leaves the conversation waiting for the other, though the rejection made the fold idle', async () => {
    const { host, log } = memoryConversation('waiting_for_confirmation');
    const [first, second] = [originalCall('call_1'), originalCall('call_2')];
    log.push(first, second);
    await decidePendingActions(host, [{ action_id: first.id, decision: { kind: 'deny', reason: 'no' } }], {
      principal: 'alice',
    });
    expect((await host.pendingActions()).map((action) => action.id)).toEqual([second.id]);
    expect(host.state().execution_status).toBe('waiting_for_confirmation');
  });
});

describe('an outbox entry whose original call is not in the log', () => {
  it('is left alone by recovery, which appends nothing', async () => {
    const { host, log } = memoryConversation('idle');
    const entry = editOutboxPath(directory, 'replacement-1');
    await host.store.write(entry, JSON.stringify({ original_action_id: 'no-such-action' }));
    await recoverEditedActions(host);
    expect(log).toEqual([]);
    expect(await host.store.exists(entry)).toBe(true);
  });
});

describe('a damaged outbox entry', () => {
  it('is a DecisionRecordDamagedError naming the entry, whether it is not JSON or names no action', async () => {
    for (const [text, why] of [
      ['{"original_action_id":', 'not JSON'],
      ['{"original":"x"}', 'original_action_id'],
    ] as const) {
      const { host, log } = memoryConversation('idle');
      const entry = editOutboxPath(directory, 'replacement-1');
      await host.store.write(entry, text);
      const recovery = recoverEditedActions(host);
      await expect(recovery).rejects.toBeInstanceOf(DecisionRecordDamagedError);
      await expect(recovery).rejects.toThrow(host.store.describe(entry));
      await expect(recovery).rejects.toThrow(why);
      expect(log).toEqual([]);
    }
  });
});

describe('a decision for a pending action while the conversation is not waiting', () => {
  it('is refused, saying what the conversation is doing', async () => {
    const { host, log } = memoryConversation('running');
    const original = originalCall();
    log.push(original);
    const attempt = decidePendingActions(host, [{ action_id: original.id, decision: { kind: 'approve' } }], {
      principal: 'alice',
    });
    await expect(attempt).rejects.toBeInstanceOf(ActionNotPendingError);
    await expect(attempt).rejects.toThrow(/: the conversation is running, not waiting_for_confirmation\.$/);
    expect(await readDecision(host.store, directory, original.id)).toBeUndefined();
  });
});

describe('a decision record another writer created and removed before it was read back', () => {
  it('is a DecisionRecordDamagedError naming the record, not a bare Error', async () => {
    const memory = createMemoryFileStore();
    // Another writer's file exists (so ours is not written), then is gone when read back.
    const store = new Proxy(memory, {
      get(target, key) {
        if (key === 'writeIfAbsent' || key === 'exists') return async () => false;
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const record = {
      action_id: 'a1',
      tool_name: 'record_effect',
      tool_call_id: 'call_1',
      decision: { kind: 'approve' as const },
      principal: 'alice',
      decided_at: new Date(0).toISOString(),
    };
    const attempt = claimDecision(store, directory, record);
    await expect(attempt).rejects.toBeInstanceOf(DecisionRecordDamagedError);
    await expect(attempt).rejects.toThrow('.decisions/a1.json');
  });
});

import { agentMessage, createActionEvent, createEvent, userMessage } from '@x/events';
import { describe, expect, it } from 'vitest';
import { applyFrames, initialConversationSnapshot, prependEvents } from './conversation-snapshot.js';

const at = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000000`;
const fullState = (status: string, second: number) =>
  createEvent('ConversationStateUpdateEvent', {
    key: 'full_state',
    value: { execution_status: status },
    timestamp: at(second),
  });
const statusUpdate = (status: string, second: number) =>
  createEvent('ConversationStateUpdateEvent', { key: 'execution_status', value: status, timestamp: at(second) });
const action = createActionEvent({
  tool_call: { id: 'call_1', name: 'terminal', arguments: '{"command":"ls"}', origin: 'completion' },
  llm_response_id: 'r',
  action: { command: 'ls', kind: 'TerminalAction' },
});

describe('applyFrames', () => {
  it('keeps persisted events by index, once each, and applies snapshots and field updates', () => {
    const user = userMessage('hi');
    let snapshot = applyFrames(initialConversationSnapshot, [
      { event: fullState('idle', 1), index: undefined },
      { event: user, index: 0 },
      { event: statusUpdate('running', 2), index: 1 },
    ]);
    snapshot = applyFrames(snapshot, [{ event: user, index: 0 }]);
    expect(snapshot.events.map((event) => event.id)).toEqual([user.id, snapshot.events[1]?.id]);
    expect(snapshot.executionStatus).toBe('running');
    // The window starts at the log's first event: nothing is older.
    expect([snapshot.firstIndex, snapshot.hasOlder]).toEqual([0, false]);
  });

  it("shows a server error frame's code and detail", () => {
    const failed = createEvent('ServerErrorEvent', {
      source: 'environment',
      code: 'StoreUnavailable',
      detail: 'the log cannot be read',
    });
    const snapshot = applyFrames(initialConversationSnapshot, [{ event: failed, index: undefined }]);
    expect(snapshot.error?.message).toBe('StoreUnavailable: the log cannot be read');
    expect(snapshot.events).toEqual([]);
  });

  it('does not let a replayed field update undo the newer snapshot a reconnection starts with (timestamps: a reference server)', () => {
    const snapshot = applyFrames(initialConversationSnapshot, [
      { event: fullState('finished', 5), index: undefined },
      { event: statusUpdate('running', 3), index: 0 },
    ]);
    expect(snapshot.executionStatus).toBe('finished');
    expect(applyFrames(snapshot, [{ event: statusUpdate('running', 6), index: 1 }]).executionStatus).toBe('running');
  });

  it('keeps its state when a full_state snapshot carries no object', () => {
    const snapshot = applyFrames(initialConversationSnapshot, [{ event: fullState('idle', 1), index: undefined }]);
    const notObject = createEvent('ConversationStateUpdateEvent', {
      key: 'full_state',
      value: 'idle',
      timestamp: at(2),
    });
    expect(applyFrames(snapshot, [{ event: notObject, index: undefined }]).state).toEqual({ execution_status: 'idle' });
  });

  it('does not let a replayed field update undo a snapshot with event_count, by log index whatever the timestamps say', () => {
    // The snapshot's timestamp may be older than the replayed update's (it need not be the time it was sent):
    // the index it reflects decides, as in RemoteConversation.
    const counted = createEvent('ConversationStateUpdateEvent', {
      key: 'full_state',
      value: { execution_status: 'finished', event_count: 4 },
      timestamp: at(1),
    });
    const snapshot = applyFrames(initialConversationSnapshot, [
      { event: counted, index: undefined },
      { event: statusUpdate('running', 3), index: 2 },
      { event: statusUpdate('idle', 4), index: 3 },
    ]);
    expect(snapshot.executionStatus).toBe('finished');
    expect(applyFrames(snapshot, [{ event: statusUpdate('running', 0), index: 4 }]).executionStatus).toBe('running');
  });

  it('lists unanswered actions while waiting for confirmation', () => {
    const snapshot = applyFrames(initialConversationSnapshot, [
      { event: action, index: 0 },
      { event: statusUpdate('waiting_for_confirmation', 1), index: 1 },
    ]);
    expect(snapshot.pendingConfirmations.map((event) => event.id)).toEqual([action.id]);
    expect(applyFrames(snapshot, [{ event: statusUpdate('running', 2), index: 2 }]).pendingConfirmations).toEqual([]);
  });

  it('accumulates streamed text until the agent records its message', () => {
    const delta = (content: string) => createEvent('StreamingDeltaEvent', { content, reasoning_content: 'r' });
    const streaming = applyFrames(initialConversationSnapshot, [
      { event: delta('Hel'), index: undefined },
      { event: delta('lo'), index: undefined },
    ]);
    expect([streaming.streamingText, streaming.streamingReasoning]).toEqual(['Hello', 'rr']);
    expect(streaming.error).toBeUndefined();
    // The user's own message (typed while the agent streams) is not the agent's answer.
    const typed = applyFrames(streaming, [{ event: userMessage('wait'), index: 0 }]);
    expect([typed.streamingText, typed.streamingReasoning]).toEqual(['Hello', 'rr']);
    const done = applyFrames(streaming, [{ event: agentMessage('Hello'), index: 0 }]);
    expect([done.streamingText, done.streamingReasoning]).toEqual(['', '']);
  });

  it('starts the window at the first index streamed, drops what it holds, and prepends older events', () => {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((text) => userMessage(text)) as [
      ReturnType<typeof userMessage>,
      ReturnType<typeof userMessage>,
      ReturnType<typeof userMessage>,
      ReturnType<typeof userMessage>,
    ];
    let snapshot = applyFrames(initialConversationSnapshot, [
      { event: c, index: 2 },
      { event: d, index: 3 },
    ]);
    expect([snapshot.firstIndex, snapshot.hasOlder]).toEqual([2, true]);
    snapshot = applyFrames(snapshot, [{ event: d, index: 3 }]);
    expect(snapshot.events.map((event) => event.id)).toEqual([c.id, d.id]);
    snapshot = prependEvents(snapshot, { events: [b], reachedStart: false, slots: 1 });
    expect([snapshot.firstIndex, snapshot.hasOlder]).toEqual([1, true]);
    snapshot = prependEvents(snapshot, { events: [a], reachedStart: true, slots: 1 });
    expect([snapshot.firstIndex, snapshot.hasOlder]).toEqual([0, false]);
    expect(snapshot.events.map((event) => event.id)).toEqual([a.id, b.id, c.id, d.id]);
  });

  it('counts an index the stream skipped (an event it cannot read), so a replay after it is not shown twice', () => {
    const [a, b, d] = ['a', 'b', 'd'].map((text) => userMessage(text)) as [
      ReturnType<typeof userMessage>,
      ReturnType<typeof userMessage>,
      ReturnType<typeof userMessage>,
    ];
    // Index 2 held an event left out as unreadable: `d` is at 3, and the next event will be at 4.
    let snapshot = applyFrames(initialConversationSnapshot, [
      { event: b, index: 1 },
      { event: d, index: 3 },
    ]);
    expect([snapshot.firstIndex, snapshot.nextIndex, snapshot.hasOlder]).toEqual([1, 4, true]);
    snapshot = applyFrames(snapshot, [{ event: d, index: 3 }]);
    expect(snapshot.events.map((event) => event.id)).toEqual([b.id, d.id]);
    snapshot = prependEvents(snapshot, { events: [a], reachedStart: true, slots: 1 });
    expect([snapshot.firstIndex, snapshot.nextIndex]).toEqual([0, 4]);
    expect(snapshot.events.map((event) => event.id)).toEqual([a.id, b.id, d.id]);
  });

  it('moves the window’s start by the places an older page covers, its unreadable events included', () => {
    const [a, d] = ['a', 'd'].map((text) => userMessage(text)) as [
      ReturnType<typeof userMessage>,
      ReturnType<typeof userMessage>,
    ];
    let snapshot = applyFrames(initialConversationSnapshot, [{ event: d, index: 9 }]);
    // Indices 6 to 8: `a` at 7 is the only one readable.
    snapshot = prependEvents(snapshot, { events: [a], reachedStart: false, slots: 3 });
    expect([snapshot.firstIndex, snapshot.hasOlder, snapshot.nextIndex]).toEqual([6, true, 10]);
    expect(snapshot.events.map((event) => event.id)).toEqual([a.id, d.id]);
  });
});

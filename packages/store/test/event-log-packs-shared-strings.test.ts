import { randomUUID } from 'node:crypto';
import { type AnyEvent, createEvent, isRoundTripSafe, ROOT_PARENT_ID, serializeEvent, withParent } from '@x/events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SharedStrings, shareEventStrings } from '../src/event-log/share-strings.js';
import { EventLog } from '../src/event-log.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';

/**
 * A pack's decoder replaces the strings events repeat (kinds, sources, tool names, the ids of recent events and
 * tool calls) with shared equal ones (`share-strings.ts`). Only an equal string may replace one: these logs
 * refer to recent events and to older ones, to ids that are close and ids that are not there, so a decoder that
 * shares a string with one that merely looks alike, or is merely recent, reads events that differ from the files.
 */

type Step = { parent: number; action: number; call: number; kind: 'action' | 'observation' | 'stats' };

/** An event of kind `step.kind` referring to earlier events (`-1`: an id no event has). */
function eventOf(step: Step, earlier: readonly AnyEvent[], index: number): AnyEvent {
  const pick = (at: number) => (at < 0 || at >= earlier.length ? undefined : earlier[earlier.length - 1 - at]);
  const callId = (at: number) => {
    const target = pick(at) as { tool_call_id?: string } | undefined;
    return target?.tool_call_id ?? `call_${randomUUID()}`;
  };
  let event: AnyEvent;
  if (step.kind === 'action') {
    const id = `call_long_enough_to_be_its_own_string_${index}`;
    event = createEvent('ActionEvent', {
      thought: [{ type: 'text', text: `step ${index}` }],
      action: { command: `ls ${index}`, kind: 'TerminalAction' },
      tool_name: 'terminal_with_a_long_name',
      tool_call_id: id,
      tool_call: { id, name: 'terminal_with_a_long_name', arguments: '{}', origin: 'completion' },
      llm_response_id: `response-${index}`,
    });
  } else if (step.kind === 'observation') {
    event = createEvent('ObservationEvent', {
      tool_name: 'terminal_with_a_long_name',
      tool_call_id: callId(step.call),
      action_id: pick(step.action)?.id ?? randomUUID(),
      observation: { content: [{ type: 'text', text: `out ${index}` }], is_error: false, kind: 'TerminalObservation' },
      extended_content: index % 2 === 0 ? [] : [{ type: 'text', text: `more ${index}` }],
    });
  } else {
    event = createEvent('ConversationStateUpdateEvent', { key: 'stats', value: { n: index } });
  }
  return withParent(event, pick(step.parent)?.id ?? (step.parent < 0 ? ROOT_PARENT_ID : randomUUID()));
}

const step = fc.record({
  parent: fc.integer({ min: -1, max: 8 }),
  action: fc.integer({ min: -1, max: 8 }),
  call: fc.integer({ min: -1, max: 8 }),
  kind: fc.constantFrom('action', 'observation', 'stats'),
}) as fc.Arbitrary<Step>;

describe('strings shared by the packed read cache', () => {
  it('never change an event: pack reads equal file reads', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 4, max: 16 }),
        async (steps, chunkSize) => {
          const events: AnyEvent[] = [];
          steps.forEach((each, index) => {
            events.push(eventOf(each, events, index));
          });
          const store = createMemoryFileStore();
          const writer = await EventLog.open(store, { packs: { chunkSize } });
          await writer.appendMany(events);
          await writer.packsSettled();
          const fromFiles = await (await EventLog.open(store, { packs: false })).range(0);
          const fromPacks = await (await EventLog.open(store, { packs: { chunkSize } })).range(0);
          expect(fromPacks).toEqual(fromFiles);
          expect(fromPacks.map(serializeEvent)).toEqual(fromFiles.map(serializeEvent));
          expect(fromPacks.map(isRoundTripSafe)).toEqual(fromFiles.map(isRoundTripSafe));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('shares a reference only with an equal recent id, and adds no field', () => {
    const shared = new SharedStrings();
    const ids = ['a0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000002'];
    for (const id of ids) shareEventStrings({ id, kind: 'ActionEvent', tool_call_id: `call-of-${id}` }, shared);
    expect(shared.ids).toEqual(ids);
    expect(shared.callIds).toEqual(ids.map((id) => `call-of-${id}`));
    const event: Record<string, unknown> = {
      id: 'a0000000-0000-4000-8000-000000000003',
      source: 'environment',
      parent_id: 'a0000000-0000-4000-8000-000000000009',
      action_id: ids[0],
      tool_call_id: 'call-of-a0000000-0000-4000-8000-000000000008',
      observation: { kind: 'TerminalObservation' },
      extended_content: [{ type: 'text', text: 'more' }],
      kind: 'ObservationEvent',
    };
    const before = JSON.stringify(event);
    shareEventStrings(event, shared);
    expect(JSON.stringify(event)).toBe(before);
    const action: Record<string, unknown> = {
      id: 'a0000000-0000-4000-8000-000000000004',
      kind: 'ActionEvent',
      tool_call_id: 'call-0123456789-a',
      tool_call: { id: 'call-0123456789-b', name: 'finish' },
    };
    shareEventStrings(action, shared);
    expect(action.tool_call).toEqual({ id: 'call-0123456789-b', name: 'finish' });
    const bare: Record<string, unknown> = { id: 'a0000000-0000-4000-8000-000000000005', tool_call: { name: 'finish' } };
    shareEventStrings(bare, shared);
    expect(Object.keys(bare.tool_call as object)).toEqual(['name']);
    expect(Object.keys(bare)).toEqual(['id', 'tool_call']);
    // Empty arrays become one frozen empty array; others stay.
    const empty: Record<string, unknown>[] = [0, 1].map(() => ({ id: 'e', thinking_blocks: [], extended_content: [] }));
    for (const each of empty) shareEventStrings(each, new SharedStrings());
    expect(empty[0]!.thinking_blocks).toBe(empty[1]!.extended_content);
    expect(Object.isFrozen(empty[0]!.thinking_blocks)).toBe(true);
    expect(empty[0]!.thinking_blocks).toEqual([]);
    // The four latest ids, oldest first.
    expect(shared.ids).toEqual([
      'a0000000-0000-4000-8000-000000000002',
      'a0000000-0000-4000-8000-000000000003',
      'a0000000-0000-4000-8000-000000000004',
      'a0000000-0000-4000-8000-000000000005',
    ]);
  });
});

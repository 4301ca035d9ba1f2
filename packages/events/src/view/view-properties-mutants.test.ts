import { describe, expect, it } from 'vitest';
import {
  action,
  agentError,
  agentMessage,
  observation,
  thinking,
  userMessage,
} from '../../test/support/event-builders.js';
import { createEvent } from '../create/create-event.js';
import type { LLMConvertibleEvent } from '../schemas/events.js';
import {
  computeManipulationIndices,
  enforceBatchAtomicity,
  enforceObservationUniqueness,
  enforceToolCallMatching,
  enforceToolLoopAtomicity,
  isObservationLikeKind,
  type ToolLoops,
  toolCallIdOf,
  viewNeedsRepair,
} from './view-properties.js';

const rejection = (callId: string) =>
  createEvent('UserRejectObservation', {
    id: `U-${callId}`,
    source: 'environment',
    tool_name: 'terminal',
    tool_call_id: callId,
    action_id: `A-${callId}`,
  });
const sorted = (ids: Set<string>) => [...ids].sort();
const noLoops: ToolLoops = { loopOf: new Map(), sizes: [] };

describe('result kinds', () => {
  it('counts observations, rejections and agent errors as results, and nothing else', () => {
    expect(['ObservationEvent', 'UserRejectObservation', 'AgentErrorEvent'].map(isObservationLikeKind)).toEqual([
      true,
      true,
      true,
    ]);
    expect(['ActionEvent', 'MessageEvent', 'SystemPromptEvent'].map(isObservationLikeKind)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('reads the call id of actions and of every result kind, none of a message', () => {
    const events: LLMConvertibleEvent[] = [action('a', 'r'), observation('b'), rejection('c'), agentError('d')];
    expect(events.map(toolCallIdOf)).toEqual(['a', 'b', 'c', 'd']);
    expect(toolCallIdOf(userMessage('m'))).toBeUndefined();
  });
});

describe('removal rules', () => {
  it('keeps the first result of a call, whatever its kind, and drops the later ones', () => {
    const view = [action('a', 'r'), rejection('a'), observation('a'), agentError('a'), observation('b')];
    expect(sorted(enforceObservationUniqueness(view))).toEqual(['E-a', 'O-a']);
  });

  it('drops every action of a response whose actions are not all in the view, keeping whole responses', () => {
    const view = [action('a', 'r1'), action('b', 'r2'), action('c', 'r2'), userMessage('m')];
    const all = new Map([
      ['r1', 2],
      ['r2', 2],
    ]);
    expect(sorted(enforceBatchAtomicity(view, all))).toEqual(['A-a']);
  });

  it('drops actions without a result and results without an action, of every result kind', () => {
    const view = [
      action('a', 'r'),
      observation('a'),
      action('b', 'r'),
      rejection('c'),
      agentError('d'),
      userMessage('m'),
    ];
    expect(sorted(enforceToolCallMatching(view))).toEqual(['A-b', 'E-d', 'U-c']);
  });

  it('drops a tool loop only partly in the view, keeping whole loops and events of no loop', () => {
    const view = [userMessage('m'), action('a', 'r1', { thinking }), observation('a'), action('b', 'r2', { thinking })];
    const loops: ToolLoops = {
      loopOf: new Map([
        ['A-a', 0],
        ['O-a', 0],
        ['A-b', 1],
        ['O-b', 1],
      ]),
      sizes: [2, 2],
    };
    expect(sorted(enforceToolLoopAtomicity(view, loops))).toEqual(['A-b']);
    expect(enforceToolLoopAtomicity(view, noLoops).size).toBe(0);
  });
});

describe('viewNeedsRepair', () => {
  const batches = (entries: [string, number][]) => new Map(entries);

  it('is false for a whole, matched view, and for actions still waiting for their result', () => {
    expect(viewNeedsRepair([userMessage('m'), action('a', 'r'), observation('a')], batches([['r', 1]]), noLoops)).toBe(
      false,
    );
    expect(viewNeedsRepair([action('a', 'r')], batches([['r', 1]]), noLoops)).toBe(false);
  });

  it('is true for a second result of a call', () => {
    expect(viewNeedsRepair([action('a', 'r'), observation('a'), agentError('a')], batches([['r', 1]]), noLoops)).toBe(
      true,
    );
  });

  it('is true for a result whose action is not in the view', () => {
    expect(viewNeedsRepair([rejection('a')], batches([]), noLoops)).toBe(true);
  });

  it('is true for a response only partly in the view', () => {
    expect(viewNeedsRepair([action('a', 'r'), observation('a')], batches([['r', 2]]), noLoops)).toBe(true);
  });

  it('is true for a tool loop only partly in the view', () => {
    const loops: ToolLoops = {
      loopOf: new Map([
        ['A-a', 0],
        ['O-a', 0],
      ]),
      sizes: [3],
    };
    const view = [action('a', 'r', { thinking }), observation('a')];
    expect(viewNeedsRepair(view, batches([['r', 1]]), loops)).toBe(true);
    expect(viewNeedsRepair(view, batches([['r', 1]]), { ...loops, sizes: [2] })).toBe(false);
  });
});

describe('computeManipulationIndices', () => {
  it('allows a cut after an answered call, also when answered by a rejection or an agent error', () => {
    expect(computeManipulationIndices([action('a', 'r1'), rejection('a'), action('b', 'r2'), agentError('b')])).toEqual(
      [0, 2, 4],
    );
  });

  it('allows no cut between two responses while the first one’s call is unanswered', () => {
    expect(
      computeManipulationIndices([action('a', 'r1'), action('b', 'r2'), observation('a'), observation('b')]),
    ).toEqual([0, 4]);
  });

  it('allows a cut at a loop start right after another loop, and after a message ending a loop', () => {
    const view = [
      action('a', 'r1', { thinking }),
      observation('a'),
      action('b', 'r2', { thinking }),
      observation('b'),
      agentMessage('done'),
      action('c', 'r3'),
      observation('c'),
    ];
    expect(computeManipulationIndices(view)).toEqual([0, 2, 4, 5, 7]);
  });
});

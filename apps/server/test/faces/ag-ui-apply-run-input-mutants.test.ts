// `applyRunInput` when the conversation refuses the frontend results it was checked to accept: the agent's own checks
// run when the decision is recorded, so a result can pass the face's checks and still be refused (two tabs answering
// the same call at once with different results: the later gets `DecisionConflictError`). Such a refusal is the
// input's fault and becomes a typed RUN_ERROR (`unknown_tool_call`), never a server error; anything else is
// rethrown as it is. The conversation is a stand-in: the race cannot be set up over HTTP without timing.
import { AgentError } from '@x/agent';
import type { ActionEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { ClientTools } from '../../src/conversations/client-tools.js';
import type { ManagedConversation } from '../../src/conversations/managed-conversation.js';
import { applyRunInput } from '../../src/faces/ag-ui/apply-run-input.js';
import type { AgUiRunInput } from '../../src/faces/ag-ui/run-input.js';

const pendingCall = {
  id: 'action-1',
  kind: 'ActionEvent',
  tool_name: 'pick_color',
  tool_call_id: 'call_1',
  action: { kind: 'ClientAction_pick_color' },
} as unknown as ActionEvent;

/** A thread waiting for `call_1`'s result, whose conversation answers a decision with `decide`. */
function threadWaitingForResult(decide: () => Promise<unknown>) {
  const runs: string[] = [];
  const open = {
    toolNames: new Set<string>(),
    session: { state: {}, update: async () => undefined },
    pendingActions: async () => [pendingCall],
    decide,
    rejectPendingActions: async () => undefined,
  };
  const conversation = {
    id: 'thread-1',
    isRunning: false,
    log: { indexOf: () => -1 },
    open: async () => open,
    sendMessage: async () => undefined,
    startRun: async () => void runs.push('run'),
    // The thread is idle: the input claims its run before recording, and starts it through the claim.
    reserveRun: () => ({ start: async () => void runs.push('run'), release: () => undefined }),
  } as unknown as ManagedConversation;
  return { conversation, runs };
}

const answer: AgUiRunInput = {
  threadId: 'thread-1',
  runId: 'run-1',
  messages: [{ id: 'tool-1', role: 'tool', toolCallId: 'call_1', content: 'red' }],
};

describe('applyRunInput, when recording a frontend result fails', () => {
  it('answers an agent’s refusal with RUN_ERROR unknown_tool_call naming it, and starts no run', async () => {
    const refusal = new AgentError('decision_conflict', 'Action action-1 was already decided differently');
    const { conversation, runs } = threadWaitingForResult(() => Promise.reject(refusal));
    await expect(applyRunInput(conversation, answer, new ClientTools())).rejects.toMatchObject({
      code: 'unknown_tool_call',
      message: 'messages: Action action-1 was already decided differently',
      cause: refusal,
    });
    expect(runs).toEqual([]);
  });

  it('rethrows any other failure as it is', async () => {
    const failure = new Error('disk full');
    const { conversation } = threadWaitingForResult(() => Promise.reject(failure));
    await expect(applyRunInput(conversation, answer, new ClientTools())).rejects.toBe(failure);
  });

  it('starts the run once the result is recorded, and says so', async () => {
    const { conversation, runs } = threadWaitingForResult(async () => []);
    await expect(applyRunInput(conversation, answer, new ClientTools())).resolves.toBe(true);
    expect(runs).toEqual(['run']);
  });
});

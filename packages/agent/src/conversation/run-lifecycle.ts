import { randomUUID } from 'node:crypto';
import { createEvent } from '@x/events';
import type { RunResult } from './conversation-options.js';
import type { RunHost } from './run-host.js';

/** The state-update key of a run's start and end (a key the reference's ConversationState does not have). */
export const RUN_STATE_KEY = 'run';

/** The value of a `run` state update: which run, which agent, and how it ended. */
export interface RunRecord {
  phase: 'started' | 'ended';
  run_id: string;
  agent: string;
  /** Ended only: the status the run left, the steps it took, and whether it was interrupted or hit its limit. */
  status?: string;
  iterations?: number;
  interrupted?: boolean;
  reached_iteration_limit?: boolean;
}

/**
 * Records that a run starts, with the agent's name, as a ConversationStateUpdateEvent `run`: a kind the
 * reference knows and loads (it accepts any key), so its files stay readable by it. Returns the run's id.
 */
export async function recordRunStarted(host: RunHost): Promise<string> {
  const runId = randomUUID();
  const value: RunRecord = { phase: 'started', run_id: runId, agent: agentName(host) };
  await host.emit(createEvent('ConversationStateUpdateEvent', { key: RUN_STATE_KEY, value }));
  return runId;
}

/** Records how the run `runId` ended (also after a failure, before the error is thrown). */
export async function recordRunEnded(host: RunHost, runId: string, result: RunResult): Promise<void> {
  const value: RunRecord = {
    phase: 'ended',
    run_id: runId,
    agent: agentName(host),
    status: result.status,
    iterations: result.iterations,
    interrupted: result.interrupted === true,
    reached_iteration_limit: result.reachedIterationLimit,
  };
  await host.emit(createEvent('ConversationStateUpdateEvent', { key: RUN_STATE_KEY, value }));
}

/** The agent in control, by the name the conversation knows it by (`agents`' key), else its own. */
function agentName(host: RunHost): string {
  return host.agentName?.() ?? host.conversation.agent.name;
}

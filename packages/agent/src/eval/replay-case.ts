import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventToJson } from '@x/events';
import { Conversation } from '../conversation/conversation.js';
import { ConversationRunError } from '../conversation/errors/conversation-run-error.js';
import type { ReplayDivergence } from '../testing/strict-replay/replay-divergence-error.js';
import { ReplayDivergenceError } from '../testing/strict-replay/replay-divergence-error.js';
import { createStrictReplay } from '../testing/strict-replay/strict-replay.js';
import { type EvalAgentFactory, recordedCondenser } from './eval-agent.js';
import type { RecordedConversation } from './recorded-conversation.js';
import { replaceWholePath } from './replace-whole-path.js';

/** How a strict replay of a recording went. */
export interface ReplayOutcome {
  /** The first request that differed (or the first recorded request never made); undefined when all matched. */
  divergence: ReplayDivergence | undefined;
  matched: number;
  recorded: number;
}

/**
 * Replays a recording against today's agent (from `agent`): the offline model answers with the recorded
 * responses, the recorded user messages are sent in order, and every request is compared with the recorded one.
 * A changed system prompt, tool or tool description shows as a divergence at the first request it changes.
 */
export async function replayRecording(
  recording: RecordedConversation,
  options: { caseId: string; agent: EvalAgentFactory },
): Promise<ReplayOutcome> {
  const workspace = await mkdtemp(join(tmpdir(), 'x-eval-replay-ws-'));
  const persistenceDir = await mkdtemp(join(tmpdir(), 'x-eval-replay-data-'));
  const recordedWorkspace = recording.workspace;
  const normalize = (text: string): string => {
    const result = replaceWholePath(text, workspace, '<workspace>');
    return recordedWorkspace ? replaceWholePath(result, recordedWorkspace, '<workspace>') : result;
  };
  const replay = createStrictReplay(
    recording.events.map((event) => eventToJson(event)),
    { normalize },
  );
  const summaries = recording.events.flatMap((event) =>
    event.kind === 'Condensation' && typeof event.summary === 'string' ? [event.summary] : [],
  );
  const userMessages = recording.events.flatMap((event) =>
    event.kind === 'MessageEvent' && event.source === 'user' ? [event.llm_message] : [],
  );
  try {
    const agent = await options.agent(replay.llm, {
      caseId: options.caseId,
      run: 1,
      mode: 'replay',
      condenser: recordedCondenser(recording.condenser, summaries),
    });
    const conversation = await Conversation.create({ agent, workspace, persistenceDir, durability: 'none' });
    try {
      for (const message of userMessages) {
        if (replay.divergence) break;
        await conversation.sendMessage(message);
        await conversation.run().catch((error: unknown) => {
          if (!ConversationRunError.isInstance(error)) throw error;
        });
      }
    } finally {
      await conversation.close();
    }
  } finally {
    await rm(workspace, { recursive: true, force: true });
    await rm(persistenceDir, { recursive: true, force: true });
  }
  let divergence = replay.divergence;
  try {
    replay.assertMatched();
  } catch (error) {
    if (!ReplayDivergenceError.isInstance(error)) throw error;
    divergence = error.divergence;
  }
  return { divergence, matched: replay.matched, recorded: replay.recorded };
}

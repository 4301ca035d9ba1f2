import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { Conversation } from '../conversation/conversation.js';
import { ConversationRunError } from '../conversation/errors/conversation-run-error.js';
import type { LLM } from '../llm/llm.js';
import type { EvalAgentFactory } from './eval-agent.js';

/** A live run: the conversation's events, and where it was kept (when it was). */
export interface LiveRun {
  events: AnyEvent[];
  workspace: string;
  conversationId: string;
  location: string | undefined;
}

/**
 * Runs the task once with a fresh agent in a fresh temporary workspace (removed after). The conversation is
 * kept in `persistenceDir` when given (so it can be viewed, replayed or promoted), else in a temporary one.
 */
export async function runLiveCase(options: {
  caseId: string;
  run: number;
  task: string;
  llm: LLM;
  agent: EvalAgentFactory;
  persistenceDir: string | undefined;
}): Promise<LiveRun> {
  const workspace = await mkdtemp(join(tmpdir(), 'x-eval-ws-'));
  const scratch = options.persistenceDir === undefined ? await mkdtemp(join(tmpdir(), 'x-eval-data-')) : undefined;
  try {
    const agent = await options.agent(options.llm, { caseId: options.caseId, run: options.run, mode: 'live' });
    const conversation = await Conversation.create({
      agent,
      workspace,
      persistenceDir: options.persistenceDir ?? scratch,
    });
    try {
      await conversation.sendMessage(options.task);
      await conversation.run().catch((error: unknown) => {
        // A run that ends in error is a result to score (no-errors fails it), not a failure of the eval.
        if (!ConversationRunError.isInstance(error)) throw error;
      });
      const events = await conversation.log.range(0);
      return {
        events,
        workspace,
        conversationId: conversation.id,
        location: scratch === undefined ? conversation.location : undefined,
      };
    } finally {
      await conversation.close();
    }
  } finally {
    await rm(workspace, { recursive: true, force: true });
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  }
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { eventToJson } from '@x/events';
import type { CliContext } from '../context.js';
import { openConversation, readEventsSettled } from '../conversation-reader.js';
import { reportDamage } from '../damage-report.js';
import { ExitCode } from '../errors.js';
import { resolveConversation } from '../resolve-conversation.js';

/**
 * The condenser the recording was made with (its `base_state.json` agent config), answering its summary
 * requests with the recorded Condensations' summaries, in order: a
 * replay condenses where the recording did, so its later requests match. Nothing when none was recorded.
 */
function recordedCondenser(
  agentModule: typeof import('@x/agent'),
  config: unknown,
  events: readonly AnyEvent[],
): { condenser?: import('@x/agent').Condenser } {
  if (config === undefined || config === null) return {};
  const summaries = events.flatMap((event) =>
    event.kind === 'Condensation' && typeof event.summary === 'string' ? [{ content: event.summary }] : [],
  );
  const llm = agentModule.withUsageId(agentModule.createOfflineLLM({ script: summaries }), 'condenser');
  return { condenser: agentModule.condenserFromJSON(config, { llm }) };
}

/**
 * `x replay --check <conversation>`: runs today's default agent (the one `x run` builds, with the condenser
 * the recording's agent config names) against the offline model answering with the recorded responses, in a
 * fresh temporary workspace, sending the recorded user messages in order, and compares every request with the
 * recorded one. Exit 0 when all match; 1 with
 * the diff of the first divergence otherwise. The recorded conversation is only read.
 */
export async function replayCheckCommand(
  context: CliContext,
  input: string,
  options: { dataDir?: string },
): Promise<number> {
  const { output } = context;
  const c = output.colors;
  const record = await openConversation(resolveConversation(input, { dataDir: options.dataDir }));
  const { entries, damaged } = await readEventsSettled(record);
  if (damaged.length > 0) return reportDamage(context, record, damaged);
  const events = entries.map(({ event }) => event);
  const agentModule = await import('@x/agent');
  const { createStrictReplay } = await import('@x/agent/testing');
  const workspace = mkdtempSync(join(tmpdir(), 'x-replay-check-'));
  const persistenceDir = mkdtempSync(join(tmpdir(), 'x-replay-check-data-'));
  const recordedWorkspace = record.baseState?.workspace?.working_dir;
  const normalize = (text: string): string => {
    let result = text.replaceAll(workspace, '<workspace>');
    if (recordedWorkspace) result = result.replaceAll(recordedWorkspace, '<workspace>');
    return result;
  };
  const replay = createStrictReplay(
    events.map((event) => eventToJson(event)),
    { normalize },
  );
  const userMessages = events.flatMap((event) =>
    event.kind === 'MessageEvent' && event.source === 'user' ? [event.llm_message] : [],
  );
  try {
    const conversation = await agentModule.Conversation.create({
      // The same agent `x run` builds by default (tool environment included), answering from the recording.
      agent: agentModule.createAgent({
        llm: replay.llm,
        toolEnvironment: { inherit: [...agentModule.defaultInheritedVariables], set: {} },
        ...recordedCondenser(agentModule, record.baseState?.agent?.condenser, events),
      }),
      workspace,
      persistenceDir,
      durability: 'none',
    });
    try {
      for (const message of userMessages) {
        if (replay.divergence) break;
        await conversation.sendMessage(message);
        await conversation.run().catch((error: unknown) => {
          if (!agentModule.ConversationRunError.isInstance(error)) throw error;
        });
      }
    } finally {
      await conversation.close();
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(persistenceDir, { recursive: true, force: true });
  }
  try {
    replay.assertMatched();
  } catch (error) {
    if (!agentModule.AgentError.isInstance(error)) throw error;
    output.line(`${c.red('replay check failed')} after ${replay.matched} of ${replay.recorded} matching requests`);
    output.line((error as Error).message.split('\n').slice(1).join('\n'));
    return ExitCode.failure;
  }
  output.line(
    `${c.green('replay check passed')}: ${replay.matched} of ${replay.recorded} requests match the recording`,
  );
  return ExitCode.ok;
}

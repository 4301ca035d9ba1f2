import type { CliContext } from '../context.js';
import { openConversation, readEvents } from '../conversation-reader.js';
import { reportDamage } from '../damage-report.js';
import { UsageError } from '../errors/usage-error.js';
import { resolveConversation } from '../resolve-conversation.js';

export async function messagesCommand(
  context: CliContext,
  input: string,
  options: { format: 'openai' | 'responses' | 'anthropic' | 'langchain'; until?: number; dataDir?: string },
): Promise<number> {
  const record = await openConversation(resolveConversation(input, { dataDir: options.dataDir }));
  if (options.until !== undefined && options.until >= record.log.length) {
    throw new UsageError(`--until ${options.until} is past the end: the conversation has ${record.log.length} events.`);
  }
  // Strict: a message list with an event missing would be silently wrong input for a model, so an
  // unreadable event file fails the command (exit 1, naming the file).
  const events = await readEvents(record, options.until === undefined ? {} : { to: options.until });
  const { activeBranch, eventsToMessages, toAnthropicMessages, toChatCompletionsMessages, toResponsesInput, View } =
    await import('@x/events');
  // Only the active branch (reference §7.7): HEAD from base_state.json, or with --until the last event up to it.
  const branch = activeBranch(
    events,
    options.until === undefined
      ? { leafEventId: record.baseState?.leaf_event_id ?? undefined, headIsEmpty: record.baseState?.head_is_empty }
      : {},
  );
  const messages = eventsToMessages(View.fromEvents(branch).events);
  // Images are kept (vision on) so nothing in the conversation is silently left out of the listing.
  const rendered =
    options.format === 'langchain'
      ? // @langchain/core is an optional peer: without it this fails naming the package to install.
        await (await import('@x/agent')).toLangChainStoredMessages(messages)
      : options.format === 'responses'
        ? toResponsesInput(messages, { visionEnabled: true })
        : options.format === 'anthropic'
          ? toAnthropicMessages(messages, { visionEnabled: true })
          : toChatCompletionsMessages(messages, { visionEnabled: true });
  context.output.line(JSON.stringify(rendered, null, 2));
  return reportDamage(context, record);
}

import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Conversation } from '@x/agent';
import type { CliContext } from '../context.js';
import { openConversation, readEvents } from '../conversation-reader.js';
import { UsageError } from '../errors/usage-error.js';
import { type ConversationSource, resolveConversation } from '../resolve-conversation.js';
import { writeForkSettings } from '../run/fork-settings.js';

interface Opened {
  conversation: Conversation;
  source: ConversationSource;
  /** base_state.json's agent as recorded: written back, so that these commands never change it. */
  recordedAgent: unknown;
}

/**
 * Opens a saved conversation for a tree operation. The agent only has to exist (nothing runs): an
 * offline one stands in, and the recorded agent is put back into base_state.json afterwards.
 */
async function openForTree(input: string, dataDir: string | undefined): Promise<Opened> {
  const source = resolveConversation(input, { dataDir });
  const checkpoints = existsSync(join(source.location, '.x-checkpoints'));
  return openResolved(source, { workspaceCheckpoints: checkpoints });
}

/** Opens `source` as `openForTree` does; `workspaceCheckpoints` restores files on fork and navigate. */
export async function openResolved(
  source: ConversationSource,
  options: { workspaceCheckpoints: boolean },
): Promise<Opened> {
  const agentModule = await import('@x/agent');
  const base = JSON.parse(await readFile(join(source.location, 'base_state.json'), 'utf8')) as {
    agent?: unknown;
    workspace?: { working_dir?: string };
  };
  const agent = agentModule.createAgent({
    llm: agentModule.createOfflineLLM({
      script: () => ({ toolCalls: [{ name: 'finish', arguments: { message: '' } }] }),
    }),
  });
  const conversation = await agentModule.Conversation.resume(source.name, {
    agent,
    persistenceDir: source.parentDir,
    workspaceCheckpoints: options.workspaceCheckpoints,
    ...(base.workspace?.working_dir === undefined ? {} : { workspace: base.workspace.working_dir }),
  });
  return { conversation, source, recordedAgent: base.agent };
}

export async function restoreAgent(location: string, agent: unknown): Promise<void> {
  if (agent === undefined) return;
  const path = join(location, 'base_state.json');
  const base = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  base.agent = agent;
  await writeFile(`${path}.tmp`, JSON.stringify(base));
  await rename(`${path}.tmp`, path);
}

/** An event given as an id, or as its log index (`4` or `#4`). */
async function eventIdOf(source: ConversationSource, given: string): Promise<string> {
  const index = /^#?(\d+)$/.exec(given)?.[1];
  if (index === undefined) return given;
  const events = await readEvents(await openConversation(source));
  const event = events[Number(index)];
  if (event === undefined) throw new UsageError(`No event #${index}: the conversation has ${events.length} events.`);
  return event.id;
}

/** `x fork <conversation> [--from <event>]`: a new conversation with its history (or one branch of it). */
export async function forkCommand(
  context: CliContext,
  input: string,
  options: {
    from?: string;
    title?: string;
    dataDir?: string;
    json?: boolean;
    workspace?: string;
    model?: string;
    tools?: string[];
  },
): Promise<number> {
  const tools = options.tools === undefined ? undefined : await builtInToolNames(options.tools);
  const { conversation, source, recordedAgent } = await openForTree(input, options.dataDir);
  const c = context.output.colors;
  try {
    const fromEventId = options.from === undefined ? undefined : await eventIdOf(source, options.from);
    const fork = await conversation.fork({
      ...(fromEventId === undefined ? {} : { fromEventId }),
      ...(options.title === undefined ? {} : { title: options.title }),
      ...(options.workspace === undefined ? {} : { workspace: resolve(options.workspace) }),
    });
    const location = fork.location;
    await fork.close();
    await restoreAgent(location, recordedAgent);
    await writeForkSettings(location, {
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(tools === undefined ? {} : { tools }),
    });
    if (options.json === true) {
      context.output.line(
        JSON.stringify({ id: fork.id, location, forked_from: conversation.id, from_event_id: fromEventId ?? null }),
      );
    } else {
      context.output.line(
        `${c.green('✔')} Forked ${c.cyan(conversation.id)}${fromEventId === undefined ? '' : ` at ${fromEventId}`} into ${c.cyan(fork.id)}`,
      );
      context.output.line(c.dim(`  ${location}`));
    }
    return 0;
  } finally {
    await conversation.close();
    await restoreAgent(source.location, recordedAgent);
  }
}

/** `x navigate <conversation> <event>`: moves HEAD; the next message starts a branch there. */
export async function navigateCommand(
  context: CliContext,
  input: string,
  event: string,
  options: { dataDir?: string },
): Promise<number> {
  const { conversation, source, recordedAgent } = await openForTree(input, options.dataDir);
  const c = context.output.colors;
  try {
    const eventId = event === 'none' ? null : await eventIdOf(source, event);
    await conversation.navigateTo(eventId);
    context.output.line(
      `${c.green('✔')} HEAD of ${c.cyan(conversation.id)} is now ${eventId === null ? 'empty (the next event starts a new root)' : eventId}`,
    );
    return 0;
  } finally {
    await conversation.close();
    await restoreAgent(source.location, recordedAgent);
  }
}

/** The names given to `--tools`, checked against the built-in tools (a typo is a usage error naming it). */
async function builtInToolNames(names: readonly string[]): Promise<string[]> {
  const known = (await import('@x/agent')).defaultTools().map((tool) => tool.name);
  const wanted = names
    .flatMap((name) => name.split(','))
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of wanted) {
    if (!known.includes(name))
      throw new UsageError(`Unknown tool ${name} in --tools: the built-in tools are ${known.join(', ')}.`);
  }
  return wanted;
}

import { type AnyEvent, createEvent } from '@x/events';
import { assertStoreOutsideSandbox } from '../sandboxing/store-outside-sandbox.js';
import { openConversationLog } from './conversation-defaults.js';
import { type ConversationInit, initForkedConversation } from './conversation-init.js';
import type { ConversationParts, PartsOwner } from './conversation-parts.js';
import type { ForkedConversation } from './fork.js';
import type { ForkOptions } from './fork-options.js';
import type { SigningControl } from './signing-log.js';

/** How a new conversation is built and written to (the class's private constructor and emit). */
export interface ConversationBuilder<Built extends ForkedConversation> {
  open(init: ConversationInit): Built;
  emit(conversation: Built, event: AnyEvent): Promise<void>;
}

/** `Conversation.fork`: the fork shares this conversation's store and runtime settings, not its listeners. */
export async function forkConversation<Built extends ForkedConversation>(
  owner: PartsOwner,
  parts: ConversationParts,
  options: ForkOptions,
  builder: ConversationBuilder<Built>,
): Promise<Built> {
  parts.lifecycle.assertOpen();
  await parts.events.settled();
  // A fork given a workspace that holds the store is refused before anything is written, as a new conversation is.
  if (options.workspace !== undefined) {
    await assertStoreOutsideSandbox({
      policy: parts.sandbox.policy,
      workspace: options.workspace,
      storeRoot: owner.store.describe(''),
      conversationDirectory: owner.directory,
    });
  }
  const { fork } = await import('./fork.js');
  const source = {
    options: parts.options,
    store: owner.store,
    cipher: parts.cipher,
    securityAnalyzer: parts.security.input,
    sandboxPolicy: parts.sandbox.policy,
  };
  const signing: SigningControl = { roster: parts.roster };
  const budget = await parts.budget.forkRecord(options.resetMetrics !== false);
  const forked = await fork({
    source: owner,
    sourceState: owner.state,
    options,
    ...(budget === undefined ? {} : { budget }),
    open: (init) => {
      const forkInit = initForkedConversation(source, init, options);
      const built = builder.open(forkInit);
      signing.roster = forkInit.roster;
      signing.inControl = () => forkInit.roster.active(built.state);
      return built;
    },
    emit: (conversation, event) => builder.emit(conversation, event),
    // The fork's agent in control signs (its own agent when given one), not the agent this conversation started with.
    openLog: (location) =>
      openConversationLog(
        options.agent === undefined ? parts.options : { ...parts.options, agent: options.agent },
        location,
        signing,
      ),
  });
  await parts.checkpoints.handOver(forked.checkpoints, await forked.activeBranch());
  // A counterfactual with another system prompt: the copied SystemPromptEvent stays (events are copied
  // unchanged), and the fork records that its agent is in control, so each step sends that agent's own prompt
  // in its place (as after `transfer_to_agent`); a resume given the same agent keeps doing so.
  if (options.agent !== undefined && options.agent.systemPrompt !== owner.agent.systemPrompt) {
    const value = { name: options.agent.name, reason: 'forked with another system prompt' };
    await builder.emit(forked, createEvent('ConversationStateUpdateEvent', { key: 'active_agent', value }));
    await forked.checkpoint();
  }
  return forked;
}

/** `Conversation.close`: waits for a run in progress, checkpoints, ends what was started, refuses further use. */
export function closeConversation(owner: PartsOwner, parts: ConversationParts): Promise<void> {
  return parts.lifecycle.closeOnce(() => closeNow(owner, parts));
}

async function closeNow(owner: PartsOwner, parts: ConversationParts): Promise<void> {
  await parts.runs.ended();
  await parts.extensions.endSession();
  await parts.events.settled();
  await owner.checkpoint();
  await owner.log.close?.();
  // Every agent control may have passed to started its extensions for this conversation.
  await Promise.allSettled(parts.roster.agents.map((agent) => agent.extensions.close()));
  parts.lifecycle.close();
  parts.events.clearListeners();
  // Tools release what they hold for this conversation (the terminal kills its shell); a failure there must
  // not keep the conversation open.
  await Promise.allSettled(agentTools(parts).map((tool) => tool.closeConversation?.(owner.id)));
  // Everything started for the conversation dies with its sandbox (background jobs, daemons, MCP servers).
  await parts.sandbox.dispose();
}

/**
 * Ends every process started for the conversation (the terminal's shell and all it started, the MCP servers,
 * everything in its sandbox) without writing anything; a later run starts them again.
 */
export async function endConversationProcesses(owner: PartsOwner, parts: ConversationParts): Promise<void> {
  await Promise.allSettled([
    ...agentTools(parts).map((tool) => tool.closeConversation?.(owner.id)),
    ...parts.roster.agents.map((agent) => agent.extensions.close()),
  ]);
  await parts.sandbox.dispose();
}

/** The tools of every agent of the conversation, each once. */
function agentTools(parts: ConversationParts) {
  return [...new Set(parts.roster.agents.flatMap((agent) => agent.tools))];
}
